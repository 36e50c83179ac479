package webhook

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
)

var types = []string{"stock.changed", "stock.low"}

func TestWebhookRules(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w, err := New("https://shop.example/hook", []string{"stock.low", "stock.changed", "stock.low"}, " stock ", true, "whsec_x", now)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(w.Events(), ","); got != "stock.changed,stock.low" || w.Description() != "stock" || !w.Enabled() {
		t.Errorf("events are kept sorted without repeats, the description trimmed: %q %q", got, w.Description())
	}
	for _, tc := range []struct {
		name   string
		url    string
		events []string
	}{
		{"relative URL", "/hook", types},
		{"other scheme", "ftp://shop.example/x", types},
		{"no host", "http:///x", types},
		{"too long", "https://shop.example/" + strings.Repeat("a", MaxURLLength), types},
		{"credentials", "https://u:p@shop.example/", types},
		{"no events", "https://shop.example/", nil},
		{"control character", "https://shop.example/\x01", types},
		{"unknown event", "https://shop.example/", []string{"stock.gone"}},
	} {
		if _, err := New(tc.url, tc.events, "", true, "s", now); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s: want invalid, got %v", tc.name, err)
		}
	}
	if _, err := New("https://shop.example/", types, "a\tb", true, "s", now); errs.KindOf(err) != errs.Invalid {
		t.Errorf("a description with a control character is refused: %v", err)
	}
	bad := "nope"
	if err := w.Apply(Patch{URL: &bad, Enabled: new(bool)}); err == nil || !w.Enabled() || w.URL() != "https://shop.example/hook" {
		t.Errorf("a failed update changes nothing: %v", err)
	}
	if got := w.Receives(); !slices.Equal(got, []string{"stock.changed", "stock.low"}) {
		t.Errorf("an enabled webhook receives its own types, got %v", got)
	}
	off := false
	_ = w.Apply(Patch{Enabled: &off})
	if len(w.Receives()) != 0 {
		t.Errorf("a disabled webhook receives nothing: %v", w.Receives())
	}
	on := true
	_ = w.Apply(Patch{Enabled: &on})
	if got := w.Receives(); !slices.Equal(got, []string{"stock.changed", "stock.low"}) {
		t.Errorf("an enabled webhook receives its types, got %v", got)
	}
	if s := NewSecret([32]byte{1}); !strings.HasPrefix(s, "whsec_") || len(s) != 6+44 {
		t.Errorf("secret = %q", s)
	}
}

func TestAURLIsAtMost2048Characters(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err := New("https://shop.example/"+strings.Repeat("a", MaxURLLength), []string{"stock.low"}, "", true, "s", now)
	if e, ok := errs.As(err); !ok || len(e.Fields) != 1 || e.Fields[0].Property != "url" || e.Fields[0].Message != "must be at most 2048 characters" {
		t.Errorf("got %v", err)
	}
	if _, err := New("https://shop.example/"+strings.Repeat("a", MaxURLLength-len("https://shop.example/")), []string{"stock.low"}, "", true, "s", now); err != nil {
		t.Errorf("a URL of exactly %d characters: %v", MaxURLLength, err)
	}
}
