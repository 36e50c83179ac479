// Package code holds the rule for the short texts that name things to people
// and shops: warehouse and bin location codes, article and order numbers.
package code

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLength is the most characters a code may have.
const MaxLength = 255

// Parse trims raw and checks that it is 1 to MaxLength characters of valid
// UTF-8 without control characters. Its error is a message for the property
// the code came in.
func Parse(raw string) (string, error) {
	c := strings.TrimSpace(raw)
	if c == "" {
		return "", errors.New("must not be empty")
	}
	return c, CheckText(c, MaxLength)
}

// CheckText checks a free text of at most max characters: valid UTF-8
// without control characters.
func CheckText(s string, max int) error {
	if !utf8.ValidString(s) {
		return errors.New("must be valid UTF-8")
	}
	if utf8.RuneCountInString(s) > max {
		return errors.New("must be at most " + strconv.Itoa(max) + " characters")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return errors.New("must not contain control characters")
		}
	}
	return nil
}
