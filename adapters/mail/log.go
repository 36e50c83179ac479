package mail

import (
	"context"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/ports"
)

// Log stands in for an SMTP server that is not configured: every mail is
// written to the log, so the outbox still drains and nothing is lost silently.
type Log struct {
	log *zap.Logger
}

var _ ports.Mailer = (*Log)(nil)

// NewLog writes mails to l; a nil l discards them.
func NewLog(l *zap.Logger) *Log {
	if l == nil {
		l = zap.NewNop()
	}
	return &Log{log: l}
}

// Send logs m at info level and always succeeds.
func (l *Log) Send(_ context.Context, m ports.Mail) error {
	l.log.Info("mail logged instead of sent",
		zap.String("to", m.To),
		zap.String("subject", m.Subject),
		zap.String("body", m.Body),
	)
	return nil
}
