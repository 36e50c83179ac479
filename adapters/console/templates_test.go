package console

import (
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
