package warehouse

import (
	"strings"
	"testing"
)

func TestFormatComponentLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    FormatComponent
		ok   bool
	}{
		{"text of 255 characters", FormatComponent{Type: ComponentText, Text: strings.Repeat("ü", 255)}, true},
		{"text of 256 characters", FormatComponent{Type: ComponentText, Text: strings.Repeat("x", 256)}, false},
		{"text that is not UTF-8", FormatComponent{Type: ComponentText, Text: "\xff"}, false},
		{"text with a bidirectional override, which every code would carry", FormatComponent{Type: ComponentText, Text: "A-\u202e"}, false},
		{"number up to 999999999", FormatComponent{Type: ComponentNumber, NumberFrom: 999999999, NumberTo: 999999999}, true},
		{"number over 999999999", FormatComponent{Type: ComponentNumber, NumberFrom: 0, NumberTo: 1000000000}, false},
		{"padding 9", FormatComponent{Type: ComponentNumber, NumberFrom: 1, NumberTo: 2, Padding: 9}, true},
		{"padding 10", FormatComponent{Type: ComponentNumber, NumberFrom: 1, NumberTo: 2, Padding: 10}, false},
		{"padding negative", FormatComponent{Type: ComponentNumber, NumberFrom: 1, NumberTo: 2, Padding: -1}, false},
		{"lower-case letters", FormatComponent{Type: ComponentLetter, LetterFrom: "a", LetterTo: "z"}, true},
		{"a letter beyond z", FormatComponent{Type: ComponentLetter, LetterFrom: "a", LetterTo: "{"}, false},
		{"two letters", FormatComponent{Type: ComponentLetter, LetterFrom: "AA", LetterTo: "B"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := validDetails()
			d.BinLocationFormat = []FormatComponent{tc.c}
			_, err := newWarehouse(d)
			if tc.ok && err != nil {
				t.Fatalf("want ok, got %v", err)
			}
			if !tc.ok {
				mustInvalid(t, err, "binLocationFormatComponents[0]")
			}
		})
	}
}

func TestAFormatHasAtMostTenComponents(t *testing.T) {
	d := validDetails()
	for range 10 {
		d.BinLocationFormat = append(d.BinLocationFormat, FormatComponent{Type: ComponentText, Text: "A"})
	}
	if _, err := newWarehouse(d); err != nil {
		t.Fatalf("ten components are fine: %v", err)
	}
	d.BinLocationFormat = append(d.BinLocationFormat, FormatComponent{Type: ComponentText, Text: "A"})
	_, err := newWarehouse(d)
	mustInvalid(t, err, "binLocationFormatComponents")
}

func TestAFormatWhoseLongestCodeIsOver255CharactersIsRefusedWhenStored(t *testing.T) {
	d := validDetails()
	d.BinLocationFormat = []FormatComponent{
		{Type: ComponentText, Text: strings.Repeat("x", 245)},
		{Type: ComponentNumber, NumberFrom: 1, NumberTo: 99, Padding: 9}, // 9 characters
		{Type: ComponentLetter, LetterFrom: "A", LetterTo: "C"},          // 1 character
	}
	w, err := newWarehouse(d)
	if err != nil {
		t.Fatalf("255 characters are fine: %v", err)
	}
	codes, err := w.BinLocationCodes()
	if err != nil || len(codes) != 99*3 || len([]rune(codes[0])) != 255 {
		t.Fatalf("codes of exactly 255 characters: %d codes, %v", len(codes), err)
	}

	d.BinLocationFormat[1].Padding = 0
	d.BinLocationFormat[1].NumberTo = 1000000 // 7 digits: 253 characters
	d.BinLocationFormat[0].Text = strings.Repeat("x", 248)
	_, err = newWarehouse(d)
	mustInvalid(t, err, "binLocationFormatComponents")

	// The same limit holds for a patch.
	d = validDetails()
	w, _ = newWarehouse(d)
	long := []FormatComponent{
		{Type: ComponentText, Text: strings.Repeat("x", 200)},
		{Type: ComponentText, Text: strings.Repeat("y", 56)},
	}
	mustInvalid(t, w.Apply(Patch{BinLocationFormat: &long}), "binLocationFormatComponents")
}

// The security finding: one number component and about a thousand text
// components of 255 characters passed validation, and generating from it
// needed tens of gigabytes. Generation now refuses such a format before it
// allocates anything, even when it was stored before the rules existed.
func TestGeneratingFromAnOversizedStoredFormatFailsWithoutAllocating(t *testing.T) {
	format := []FormatComponent{{Type: ComponentNumber, NumberFrom: 1, NumberTo: 99999}}
	for range 1000 {
		format = append(format, FormatComponent{Type: ComponentText, Text: strings.Repeat("x", 255)})
	}
	w := UnmarshalFromDatabase(1, Details{Code: "W", Name: "W", BinLocationFormat: format}, false, false, 2)
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := w.BinLocationCodes(); err == nil {
			t.Fatal("an oversized format must not generate")
		}
	})
	if allocs > 20 {
		t.Fatalf("refusing the format allocated %v times", allocs)
	}

	// Few components, but each code too long.
	w = UnmarshalFromDatabase(1, Details{Code: "W", Name: "W", BinLocationFormat: []FormatComponent{
		{Type: ComponentNumber, NumberFrom: 1, NumberTo: 99999},
		{Type: ComponentText, Text: strings.Repeat("x", 255)},
	}}, false, false, 2)
	_, err := w.BinLocationCodes()
	mustInvalid(t, err, "")
}

func TestANumberComponentSaysItsRange(t *testing.T) {
	err := FormatComponent{Type: ComponentNumber, NumberFrom: 0, NumberTo: 1000000000}.validate()
	if err == nil || err.Error() != "a number component needs 0 <= from <= to <= 999999999" {
		t.Errorf("got %v", err)
	}
	err = FormatComponent{Type: ComponentText, Text: strings.Repeat("x", 256)}.validate()
	if err == nil || err.Error() != "a text component's value must be at most 255 characters" {
		t.Errorf("got %v", err)
	}
}
