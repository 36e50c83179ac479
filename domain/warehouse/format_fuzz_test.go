package warehouse

import (
	"testing"
	"unicode/utf8"
)

// FuzzFormat builds formats from arbitrary input: whatever New accepts must
// generate within the bounds, every code at most 255 characters.
func FuzzFormat(f *testing.F) {
	f.Add([]byte{0, 1, 2}, "A-", 1, 20, 2, "A", "F")
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "x", 0, 999999999, 9, "a", "z")
	f.Add([]byte{1, 0}, "\x00\xff", -1, 5, 10, "F", "A")
	f.Add([]byte{0, 0, 0, 0}, string(make([]byte, 255)), 1, 99, 9, "Z", "Z")
	f.Fuzz(func(t *testing.T, kinds []byte, text string, from, to, padding int, letterFrom, letterTo string) {
		if len(kinds) > 16 {
			kinds = kinds[:16]
		}
		var format []FormatComponent
		for i, k := range kinds {
			switch k % 3 {
			case 0:
				format = append(format, FormatComponent{Type: ComponentText, Text: text})
			case 1:
				format = append(format, FormatComponent{Type: ComponentNumber, NumberFrom: from, NumberTo: to + i, Padding: padding})
			default:
				format = append(format, FormatComponent{Type: ComponentLetter, LetterFrom: letterFrom, LetterTo: letterTo})
			}
		}
		d := Details{Code: "W", Name: "W", BinLocationFormat: format}
		w, err := newWarehouse(d)
		if err != nil {
			return
		}
		if len(format) > MaxFormatComponents || longestCode(format) > MaxCodeLength {
			t.Fatalf("New accepted a format beyond the limits: %+v", format)
		}
		total := 1
		for _, c := range format {
			total *= c.count()
			if total > MaxGeneratedCodes {
				return // BinLocationCodes refuses it; do not spend the memory to check
			}
		}
		codes, err := w.BinLocationCodes()
		if err != nil {
			return
		}
		if len(codes) > MaxGeneratedCodes {
			t.Fatalf("%d codes", len(codes))
		}
		for _, c := range codes {
			if utf8.RuneCountInString(c) > MaxCodeLength {
				t.Fatalf("code of %d characters", utf8.RuneCountInString(c))
			}
		}
	})
}
