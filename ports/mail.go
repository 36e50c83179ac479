package ports

import "context"

// Mail is one plain-text message.
type Mail struct {
	To      string
	Subject string
	Body    string
}

// Mailer delivers one mail; an error means it was not accepted and may be retried.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}
