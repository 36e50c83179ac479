package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/session"
)

// SessionRepository stores console sessions, so that every instance serves
// every session.
type SessionRepository interface {
	Add(ctx context.Context, s *session.Session) error
	// Get returns the session with that token hash, nil when there is none.
	Get(ctx context.Context, tokenHash string) (*session.Session, error)
	// Touch stores the session's last use.
	Touch(ctx context.Context, s *session.Session) error
	Delete(ctx context.Context, tokenHash string) error
	// PurgeExpired deletes the sessions last used before lastUse or signed
	// in before signedIn.
	PurgeExpired(ctx context.Context, lastUse, signedIn time.Time) (int, error)
}
