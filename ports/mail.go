package ports

import (
	"context"
	"errors"
)

// Mail is one plain-text message.
type Mail struct {
	To      string
	Subject string
	Body    string
}

// Mailer delivers one mail; an error means it was not accepted and may be
// retried, unless it wraps ErrUndeliverable.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// ErrUndeliverable marks a mail that was refused for good (a bad address, a
// permanent rejection): trying it again would fail the same way.
var ErrUndeliverable = errors.New("undeliverable")
