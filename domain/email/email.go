// Package email holds the rule for an email address: one a mail can be sent
// to as given (warehouse contacts, order customers).
package email

import (
	"errors"
	"net/mail"
	"strings"

	"github.com/shopstock/inventory/domain/code"
)

// Parse trims raw and checks that it is a bare address ("jane@example.com",
// not "Jane <jane@example.com>"). Its error is a message for the property
// the address came in.
func Parse(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" || len(s) > code.MaxText {
		return "", errors.New("must be an email address")
	}
	return s, nil
}
