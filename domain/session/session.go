// Package session holds the console's sign-in session: whose it is, the
// token that guards its forms, and when it ends.
package session

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/shopstock/inventory/domain/user"
)

// IdleTimeout ends a session that has not been used for that long.
const IdleTimeout = 12 * time.Hour

// MaxLifetime ends a session that long after its sign-in, however busy it
// is, so that a stolen cookie kept warm does not serve for ever.
const MaxLifetime = 7 * 24 * time.Hour

// touchEvery keeps a busy session from writing on every page: its last use
// is recorded at most once a minute, well inside the idle timeout.
const touchEvery = time.Minute

// Session is a signed-in console user. Only a hash of its token is kept,
// so that a copy of the database signs nobody in. It belongs to a user's id
// and to the credential the user had at sign-in, not to a name: a name can
// be given again to another user, and a rotated key must end what the old
// key opened.
type Session struct {
	tokenHash  string
	userID     int64
	credential string
	csrfToken  string
	createdAt  time.Time
	lastSeen   time.Time
}

// HashToken is the stored form of a session token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Fingerprint identifies the credential u has now. It is made from what
// storage keeps to check the key, never from the key, so that whatever
// replaces that (a new key, Digest turned on, which issues one, the values
// sealed anew under a new secret) changes it; turning Digest off leaves the
// key, and the sessions, as they are.
func Fingerprint(u *user.User) string {
	c := u.Credentials()
	h := sha256.New()
	for _, part := range []string{"console session credential", c.Key, c.LegacyKeyHash} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// New starts a session for u with the given (random) token and form token
// at now.
func New(token string, u *user.User, csrfToken string, now time.Time) *Session {
	return &Session{tokenHash: HashToken(token), userID: u.ID(), credential: Fingerprint(u),
		csrfToken: csrfToken, createdAt: now, lastSeen: now}
}

// UnmarshalFromDatabase rebuilds a stored session; only adapters call it.
func UnmarshalFromDatabase(tokenHash string, userID int64, credential, csrfToken string, createdAt, lastSeen time.Time) *Session {
	return &Session{tokenHash: tokenHash, userID: userID, credential: credential, csrfToken: csrfToken,
		createdAt: createdAt, lastSeen: lastSeen}
}

func (s *Session) TokenHash() string    { return s.tokenHash }
func (s *Session) UserID() int64        { return s.userID }
func (s *Session) Credential() string   { return s.credential }
func (s *Session) CSRFToken() string    { return s.csrfToken }
func (s *Session) CreatedAt() time.Time { return s.createdAt }
func (s *Session) LastSeen() time.Time  { return s.lastSeen }

// Expired tells whether the session has ended by time at now: idle for
// IdleTimeout, or signed in MaxLifetime ago.
func (s *Session) Expired(now time.Time) bool {
	return !now.Before(s.lastSeen.Add(IdleTimeout)) || !now.Before(s.createdAt.Add(MaxLifetime))
}

// BelongsTo tells whether the session still speaks for u, the user stored
// now under the session's id (nil when there is none): the same user, with
// the same credential as at sign-in, and enabled.
func (s *Session) BelongsTo(u *user.User) bool {
	return u != nil && u.ID() == s.userID && u.Enabled() && Fingerprint(u) == s.credential
}

// ValidFor tells whether the session opens the console for u at now.
func (s *Session) ValidFor(u *user.User, now time.Time) bool {
	return s.BelongsTo(u) && !s.Expired(now)
}

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

// SignedInSince is the sign-in before which a session has expired at now.
func SignedInSince(now time.Time) time.Time { return now.Add(-MaxLifetime) }
