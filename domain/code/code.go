// Package code holds the rules for the texts the API and console take:
// the short texts that name things to people and shops (warehouse and bin
// location codes, article and order numbers, names), and what any text
// may hold.
package code

import (
	"errors"
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

// Parse trims raw and checks that it is 1 to MaxText characters of valid
// UTF-8 without control characters. Its error is a message for the property
// the code came in.
func Parse(raw string) (string, error) {
	c := strings.TrimSpace(raw)
	if c == "" {
		return "", errors.New("must not be empty")
	}
	return c, CheckText(c, MaxText)
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
