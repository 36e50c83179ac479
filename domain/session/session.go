// Package session holds the console's sign-in session: whose it is, the
// token that guards its forms, and when it ends.
package session

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// IdleTimeout ends a session that has not been used for that long.
const IdleTimeout = 12 * time.Hour

// touchEvery keeps a busy session from writing on every page: its last use
// is recorded at most once a minute, well inside the idle timeout.
const touchEvery = time.Minute

// Session is a signed-in console user. Only a hash of its token is kept,
// so that a copy of the database signs nobody in.
type Session struct {
	tokenHash string
	user      string
	csrfToken string
	createdAt time.Time
	lastSeen  time.Time
}

// HashToken is the stored form of a session token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// New starts a session for user with the given (random) token and form
// token at now.
func New(token, user, csrfToken string, now time.Time) *Session {
	return &Session{tokenHash: HashToken(token), user: user, csrfToken: csrfToken, createdAt: now, lastSeen: now}
}

// UnmarshalFromDatabase rebuilds a stored session; only adapters call it.
func UnmarshalFromDatabase(tokenHash, user, csrfToken string, createdAt, lastSeen time.Time) *Session {
	return &Session{tokenHash: tokenHash, user: user, csrfToken: csrfToken, createdAt: createdAt, lastSeen: lastSeen}
}

func (s *Session) TokenHash() string    { return s.tokenHash }
func (s *Session) User() string         { return s.user }
func (s *Session) CSRFToken() string    { return s.csrfToken }
func (s *Session) CreatedAt() time.Time { return s.createdAt }
func (s *Session) LastSeen() time.Time  { return s.lastSeen }

// Expired tells whether the session has been idle for IdleTimeout at now.
func (s *Session) Expired(now time.Time) bool { return !now.Before(s.lastSeen.Add(IdleTimeout)) }

// Touch records a use at now and tells whether that is worth storing.
func (s *Session) Touch(now time.Time) bool {
	if now.Sub(s.lastSeen) < touchEvery {
		return false
	}
	s.lastSeen = now
	return true
}

// IdleSince is the last use before which a session has expired at now.
func IdleSince(now time.Time) time.Time { return now.Add(-IdleTimeout) }
