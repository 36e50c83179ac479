package code

import (
	"strings"
	"testing"
)

func TestACodeIsTrimmedAndBounded(t *testing.T) {
	for raw, want := range map[string]string{" WH1 ": "WH1", "A-01": "A-01", strings.Repeat("é", 255): strings.Repeat("é", 255)} {
		if got, err := Parse(raw); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v", raw, got, err)
		}
	}
	for raw, want := range map[string]string{
		"":                       "must not be empty",
		"   ":                    "must not be empty",
		strings.Repeat("x", 256): "must be at most 255 characters",
		"A\x00B":                 "must not contain control characters",
		"A\x7fB":                 "must not contain control characters",
		"A\nB":                   "must not contain control characters",
		"\xff":                   "must be valid UTF-8",
	} {
		if _, err := Parse(raw); err == nil || err.Error() != want {
			t.Errorf("Parse(%q): got %v, want %q", raw, err, want)
		}
	}
}

func TestAMultilineTextMayHoldTabsAndLineBreaksButNoOtherControlCharacter(t *testing.T) {
	if err := CheckMultiline("Main St. 1\r\n\tBack door", MaxLongText); err != nil {
		t.Errorf("tab and line breaks refused: %v", err)
	}
	for _, bad := range []string{"A\x00B", "A\x7fB", "A\x1bB"} {
		if err := CheckMultiline(bad, MaxLongText); err == nil || err.Error() != ControlMessage {
			t.Errorf("CheckMultiline(%q) = %v, want %q", bad, err, ControlMessage)
		}
	}
	if err := CheckText("a\tb", MaxText); err == nil {
		t.Error("a one-line text holds a tab")
	}
	if err := CheckMultiline(strings.Repeat("x", MaxLongText+1), MaxLongText); err == nil || err.Error() != "must be at most 65535 characters" {
		t.Errorf("a long text past its bound: %v", err)
	}
}
