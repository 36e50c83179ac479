// Package idempotency holds the rule for the keys that make a batch safe to
// retry: a retry under the same key runs once.
package idempotency

import (
	"strconv"
	"unicode/utf8"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
)

// ParseKey checks a key: 1 to code.MaxText characters of valid UTF-8 without control
// characters. Invalid UTF-8 is refused rather than replaced, so two
// different keys can never become the same one.
func ParseKey(raw string) (string, error) {
	if !utf8.ValidString(raw) {
		return "", invalid()
	}
	if n := utf8.RuneCountInString(raw); n < 1 || n > code.MaxText {
		return "", invalid()
	}
	for _, r := range raw {
		if !code.Allowed(r, false) {
			return "", invalid()
		}
	}
	return raw, nil
}

func invalid() error {
	return errs.InvalidFields(errs.FieldError{Property: "idempotencyKey",
		Message: "must be 1 to " + strconv.Itoa(code.MaxText) + " characters of valid UTF-8 without control characters"})
}
