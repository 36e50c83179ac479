package console

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// The pager of every list: the filter stays in its links where the list has
// one, and the links' words are the list's own.
func TestPagerLinksKeepTheFilterAndTheWords(t *testing.T) {
	h := &Handler{}
	if err := h.parseTemplates(); err != nil {
		t.Fatal(err)
	}
	render := func(data map[string]any) string {
		var b strings.Builder
		if err := h.pages["orders"].ExecuteTemplate(&b, "pager", data); err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for _, c := range []struct {
		data map[string]any
		want string
	}{
		{map[string]any{"page": 1, "pages": 1}, ""},
		{map[string]any{"page": 2, "pages": 3},
			`<nav class="pager"> <a href="?page=1" class="button">← Previous</a> <span>Page 2 of 3</span> <a href="?page=3" class="button">Next →</a> </nav>`},
		{map[string]any{"page": 1, "pages": 2, "q": ""},
			`<nav class="pager"> <span>Page 1 of 2</span> <a href="?page=2&amp;q=" class="button">Next →</a> </nav>`},
		{map[string]any{"page": 2, "pages": 2, "q": "A-1 &"},
			`<nav class="pager"> <a href="?page=1&amp;q=A-1&#43;%26" class="button">← Previous</a> <span>Page 2 of 2</span> </nav>`},
		{map[string]any{"page": 2, "pages": 3, "prev": "Newer", "next": "Older"},
			`<nav class="pager"> <a href="?page=1" class="button">← Newer</a> <span>Page 2 of 3</span> <a href="?page=3" class="button">Older →</a> </nav>`},
	} {
		if got := render(c.data); got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.data, got, c.want)
		}
	}
}

// Every form that posts sends its token first, where an upload's reader
// looks for it before it reads the rest (readForm).
func TestPostFormsSendTheirTokenFirst(t *testing.T) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		t.Fatal(err)
	}
	form := regexp.MustCompile(`<form[^>]*method="post"[^>]*>`)
	tokenFirst := regexp.MustCompile(`^\s*{{template "(csrf|hidden)"`)
	forms := 0
	for _, name := range names {
		src, err := fs.ReadFile(templateFS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range form.FindAllIndex(src, -1) {
			forms++
			if !tokenFirst.Match(src[at[1]:]) {
				t.Errorf("%s: a form that posts does not send its token first: %s", name, src[at[0]:min(len(src), at[1]+80)])
			}
		}
	}
	if forms < 10 {
		t.Errorf("found %d forms that post, fewer than the console has", forms)
	}
}
