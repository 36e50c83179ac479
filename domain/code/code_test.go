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

// A bidirectional override or isolate makes one code display as another
// ("LOT-\u202e01-A" shows as "LOT-A-10"), so codes, numbers and lot numbers
// refuse them; free texts, which no one matches by eye against a label,
// keep them.
func TestCodesRefuseBidirectionalOverrides(t *testing.T) {
	for _, r := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069} {
		raw := "LOT-" + string(r) + "01"
		if _, err := Parse(raw); err == nil || err.Error() != BidiMessage {
			t.Errorf("Parse(%q) = %v, want %q", raw, err, BidiMessage)
		}
		if err := CheckCode(raw, 64); err == nil || err.Error() != BidiMessage {
			t.Errorf("CheckCode(%q) = %v, want %q", raw, err, BidiMessage)
		}
		if err := CheckText(raw, MaxText); err != nil {
			t.Errorf("a free text may hold %U: %v", r, err)
		}
	}
	for _, ok := range []string{"שלום-1", "مخزن", "LOT\u200f1"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	if got, err := ParseName(" Main \u202ewarehouse "); err != nil || got != "Main \u202ewarehouse" {
		t.Errorf("a name is a free text: %q %v", got, err)
	}
}

// Every parameter of a request, name and values, is a short text; the
// check names the first one, in name order, that is not.
func TestRequestParametersFollowTheTextRule(t *testing.T) {
	ok := map[string][]string{"q": {"Schraube M4"}, "filter[0][value][]": {"a", "b"}, "page": {"2"}}
	if name, err := CheckParameters(ok, nil); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, c := range []struct {
		params map[string][]string
		name   string
		msg    string
	}{
		{map[string][]string{"warehouse": {"a\x00"}, "z": {"\x01"}}, "warehouse", ControlMessage},
		{map[string][]string{"q": {"ok", "\xff"}}, "q", NotUTF8Message},
		{map[string][]string{"bin": {strings.Repeat("x", MaxText+1)}}, "bin", "must be at most 255 characters"},
		{map[string][]string{"a\x00": {"1"}}, `"a\x00"`, ControlMessage},
	} {
		name, err := CheckParameters(c.params, nil)
		if name != c.name || err == nil || err.Error() != c.msg {
			t.Errorf("%q: got %s %v, want %s %q", c.params, name, err, c.name, c.msg)
		}
	}
}

// A rule may grant a parameter longer values (a filter's comma list) or one
// more character (the group separator a scanner sends), and nothing else.
func TestAParameterRuleGrantsLengthOrOneCharacter(t *testing.T) {
	rule := func(name string) ParameterRule {
		switch name {
		case "filter[0][value]":
			return ParameterRule{Max: MaxLongText}
		case "q":
			return ParameterRule{Also: func(r rune) bool { return r == 0x1d }}
		}
		return ParameterRule{}
	}
	long := strings.Repeat("1,", 500)
	if name, err := CheckParameters(map[string][]string{"filter[0][value]": {long}, "q": {"0104006381333931\x1d10L-42"}}, rule); err != nil {
		t.Fatalf("granted: %s %v", name, err)
	}
	for _, params := range []map[string][]string{{"q": {"a\x00"}}, {"page": {long}}, {"filter[0][value]": {"a\x1d"}}} {
		if _, err := CheckParameters(params, rule); err == nil {
			t.Errorf("%q passes", params)
		}
	}
}
