// Package code holds the rules for the texts the API and console take: the short
// texts that name things to people and shops (warehouse and bin location
// codes, article, order and lot numbers, names), what any text may hold,
// and the parameters of a request.
package code

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxText is the most characters of a short text: a code or number, a
// name, a contact, a phone, a webhook's description, an idempotency key,
// the text of a bin location format.
const MaxText = 255

// MaxLongText is the most characters of a long free text (an address, a
// comment).
const MaxLongText = 65535

// MultilineProperties are the properties whose texts may span lines: they
// may hold tab, line feed and carriage return.
var MultilineProperties = []string{"address", "comment"}

// The messages of the text rule, for the property a text came in.
const (
	NotUTF8Message = "must be valid UTF-8"
	ControlMessage = "must not contain control characters"
	BidiMessage    = "must not contain bidirectional override or isolate characters"
)

// Allowed tells whether r may stand in a text: no control character
// (U+0000–U+001F, U+007F), but tab, line feed and carriage return in a
// multiline one.
func Allowed(r rune, multiline bool) bool {
	if r < 0x20 || r == 0x7f {
		return multiline && (r == '\t' || r == '\n' || r == '\r')
	}
	return true
}

// Bidi tells whether r is a bidirectional embedding, override or isolate
// (U+202A–U+202E, U+2066–U+2069): inside a code it makes the code display
// as another ("LOT-\u202e01-A" shows as "LOT-A-10"), so that a person
// matching a label by eye takes one for the other.
func Bidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Parse trims raw and checks that it is a code (or number) of 1 to MaxText
// characters: valid UTF-8 without control or bidirectional override
// characters. Its error is a message for the property the code came in.
func Parse(raw string) (string, error) {
	c := strings.TrimSpace(raw)
	if c == "" {
		return "", errors.New("must not be empty")
	}
	return c, CheckCode(c, MaxText)
}

// ParseName trims raw and checks that it is a name of 1 to MaxText
// characters: a free text, which may hold any script's directions.
func ParseName(raw string) (string, error) {
	n := strings.TrimSpace(raw)
	if n == "" {
		return "", errors.New("must not be empty")
	}
	return n, CheckText(n, MaxText)
}

// CheckCode checks a code, number or lot number of at most max characters:
// a text without bidirectional override characters.
func CheckCode(s string, max int) error {
	if err := CheckText(s, max); err != nil {
		return err
	}
	if strings.IndexFunc(s, Bidi) >= 0 {
		return errors.New(BidiMessage)
	}
	return nil
}

// ParameterRule is how far a request parameter's values may stray from a
// short text.
type ParameterRule struct {
	// Max is the most characters of a value; 0 is MaxText. A comma list
	// (the values of a filter) may be longer.
	Max int
	// Also tells a rune a value may hold besides what a text allows: the
	// GS1 group separator that a scanner sends inside a scanned code. Nil:
	// none.
	Also func(r rune) bool
}

// CheckParameters checks the parameters of a request, a query's or a
// form's, names and values alike: each is a short text (CheckText with
// MaxText), but for what rule (nil: none) grants a parameter. It tells the
// first parameter, in name order, that breaks the rule, and why; a name
// that is itself not a text is told quoted.
func CheckParameters(params map[string][]string, rule func(name string) ParameterRule) (name string, err error) {
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := CheckText(n, MaxText); err != nil {
			return strconv.QuoteToASCII(n), err
		}
		var r ParameterRule
		if rule != nil {
			r = rule(n)
		}
		if r.Max == 0 {
			r.Max = MaxText
		}
		for _, v := range params[n] {
			if err := checkParameter(v, r); err != nil {
				return n, err
			}
		}
	}
	return "", nil
}

func checkParameter(v string, r ParameterRule) error {
	if r.Also != nil {
		v = strings.Map(func(c rune) rune {
			if r.Also(c) {
				return ' '
			}
			return c
		}, v)
	}
	return CheckText(v, r.Max)
}

// CheckText checks a free text of at most max characters: valid UTF-8
// without control characters.
func CheckText(s string, max int) error {
	return check(s, max, false)
}

// CheckMultiline is CheckText for a text that may span lines.
func CheckMultiline(s string, max int) error {
	return check(s, max, true)
}

func check(s string, max int, multiline bool) error {
	if !utf8.ValidString(s) {
		return errors.New(NotUTF8Message)
	}
	if utf8.RuneCountInString(s) > max {
		return errors.New("must be at most " + strconv.Itoa(max) + " characters")
	}
	for _, r := range s {
		if !Allowed(r, multiline) {
			return errors.New(ControlMessage)
		}
	}
	return nil
}
