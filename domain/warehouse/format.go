package warehouse

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
)

// ComponentType is the kind of one part of a bin location code format.
type ComponentType string

const (
	ComponentText   ComponentType = "text"
	ComponentNumber ComponentType = "number"
	ComponentLetter ComponentType = "letter"
)

// FormatComponent is one part of a bin location code: fixed text, a number
// range or a letter range. Codes are every combination of the parts, joined.
type FormatComponent struct {
	Type       ComponentType
	Text       string // text
	NumberFrom int    // number
	NumberTo   int    // number
	Padding    int    // number: zero-pad to this many digits
	LetterFrom string // letter
	LetterTo   string // letter
}

// MaxGeneratedCodes bounds how many codes one format may spell.
const MaxGeneratedCodes = 100000

const maxPadding = 9

// MaxFormatComponents bounds the parts of one format.
const MaxFormatComponents = 10

// MaxCodeLength is the longest code a format may spell: that of a bin
// location code.
const MaxCodeLength = code.MaxText

// maxNumber keeps ranges countable without overflow (and codes short).
const maxNumber = 999_999_999

func (c FormatComponent) validate() error {
	switch c.Type {
	case ComponentText:
		if c.Text == "" {
			return errors.New("a text component needs a non-empty value")
		}
		if !utf8.ValidString(c.Text) || utf8.RuneCountInString(c.Text) > code.MaxText {
			return errors.New("a text component's value must be at most " + itoa(code.MaxText) + " characters")
		}
		if err := code.CheckCode(c.Text, code.MaxText); err != nil {
			return errors.New("a text component's value " + err.Error())
		}
	case ComponentNumber:
		if c.NumberFrom < 0 || c.NumberTo < c.NumberFrom || c.NumberTo > maxNumber {
			return errors.New("a number component needs 0 <= from <= to <= " + itoa(maxNumber))
		}
		if c.Padding < 0 || c.Padding > maxPadding {
			return errors.New("a number component's padding must be between 0 and 9")
		}
	case ComponentLetter:
		if !isLetter(c.LetterFrom) || !isLetter(c.LetterTo) {
			return errors.New("a letter component needs from and to as single letters A-Z or a-z")
		}
		if isUpper(c.LetterFrom) != isUpper(c.LetterTo) || c.LetterTo < c.LetterFrom {
			return errors.New("a letter component needs from <= to in the same case")
		}
	default:
		return errors.New(`type must be one of "text", "number", "letter"`)
	}
	return nil
}

func isLetter(s string) bool {
	return len(s) == 1 && ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))
}

func isUpper(s string) bool { return s[0] >= 'A' && s[0] <= 'Z' }

func (c FormatComponent) values() []string {
	switch c.Type {
	case ComponentNumber:
		out := make([]string, 0, c.NumberTo-c.NumberFrom+1)
		for n := c.NumberFrom; n <= c.NumberTo; n++ {
			s := strconv.Itoa(n)
			if len(s) < c.Padding {
				s = strings.Repeat("0", c.Padding-len(s)) + s
			}
			out = append(out, s)
		}
		return out
	case ComponentLetter:
		out := make([]string, 0, c.LetterTo[0]-c.LetterFrom[0]+1)
		for l := c.LetterFrom[0]; l <= c.LetterTo[0]; l++ {
			out = append(out, string(rune(l)))
		}
		return out
	default:
		return []string{c.Text}
	}
}

// length is the number of characters of the component's longest value.
func (c FormatComponent) length() int {
	switch c.Type {
	case ComponentNumber:
		return max(len(strconv.Itoa(c.NumberTo)), c.Padding)
	case ComponentLetter:
		return 1
	default:
		return utf8.RuneCountInString(c.Text)
	}
}

// checkFormat checks what a format must be as a whole; its components are
// each valid already.
func checkFormat(format []FormatComponent) *errs.FieldError {
	if len(format) > MaxFormatComponents {
		return &errs.FieldError{Property: "binLocationFormatComponents",
			Message: "must have at most " + itoa(MaxFormatComponents) + " components, not " + itoa(len(format))}
	}
	if n := longestCode(format); n > MaxCodeLength {
		return &errs.FieldError{Property: "binLocationFormatComponents",
			Message: "spells codes of up to " + itoa(n) + " characters; a bin location code has at most " + itoa(MaxCodeLength)}
	}
	return nil
}

func longestCode(format []FormatComponent) int {
	n := 0
	for _, c := range format {
		n += c.length()
	}
	return n
}

func (c FormatComponent) count() int {
	switch c.Type {
	case ComponentNumber:
		return c.NumberTo - c.NumberFrom + 1
	case ComponentLetter:
		return int(c.LetterTo[0]-c.LetterFrom[0]) + 1
	default:
		return 1
	}
}

// BinLocationCodes spells every code of the warehouse's format, in order.
func (w *Warehouse) BinLocationCodes() ([]string, error) {
	format := w.details.BinLocationFormat
	if len(format) == 0 {
		return nil, errs.Invalidf("warehouse %q has no binLocationFormatComponents to generate bin locations from", w.details.Code).On("binLocationFormatComponents")
	}
	// Every bound is checked before anything is allocated: a format stored
	// before these rules, or built by hand, must not exhaust the memory.
	if len(format) > MaxFormatComponents {
		return nil, errs.Invalidf("the binLocationFormatComponents of warehouse %q have more than %d components", w.details.Code, MaxFormatComponents).On("binLocationFormatComponents")
	}
	for _, c := range format {
		if err := c.validate(); err != nil {
			return nil, errs.Invalidf("the binLocationFormatComponents of warehouse %q are invalid: %v", w.details.Code, err).On("binLocationFormatComponents")
		}
	}
	if n := longestCode(format); n > MaxCodeLength {
		return nil, errs.Invalidf("the binLocationFormatComponents of warehouse %q spell codes longer than %d characters", w.details.Code, MaxCodeLength).On("binLocationFormatComponents")
	}
	total := 1
	for _, c := range format {
		total *= c.count()
		if total > MaxGeneratedCodes {
			return nil, errs.Invalidf("the binLocationFormatComponents of warehouse %q spell more than %d codes", w.details.Code, MaxGeneratedCodes).On("binLocationFormatComponents")
		}
	}
	codes := []string{""}
	for _, c := range format {
		values := c.values()
		next := make([]string, 0, len(codes)*len(values))
		for _, prefix := range codes {
			for _, v := range values {
				next = append(next, prefix+v)
			}
		}
		codes = next
	}
	out := codes[:0]
	for _, code := range codes {
		if _, err := checkCode(code); err == nil {
			out = append(out, code)
		}
	}
	return out, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
