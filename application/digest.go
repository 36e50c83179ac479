package application

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"time"

	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// DigestNonceLifetime is how long a Digest nonce is accepted.
const DigestNonceLifetime = 5 * time.Minute

// A nonce is base64url(issued unix seconds (8 bytes) | 12 random bytes |
// the first 16 bytes of HMAC-SHA-256 over both under a key derived from the
// service's secret). Any instance can tell its age and that the service
// issued it without storing it; only the counts clients used with it are
// stored.
const nonceRaw = 8 + 12 + 16

// nonceKey signs the nonces; it derives from the secret, so a copy of
// storage cannot make nonces either.
func (a *App) nonceKey(context.Context) ([]byte, error) { return a.secrets.Key("digest nonce"), nil }

// DigestNonce issues a fresh nonce for a Digest challenge.
func (a *App) DigestNonce(ctx context.Context) (string, error) {
	key, err := a.nonceKey(ctx)
	if err != nil {
		return "", err
	}
	var raw [nonceRaw]byte
	binary.BigEndian.PutUint64(raw[:8], uint64(a.clock.Now().Unix()))
	_, _ = rand.Read(raw[8:20])
	mac := hmac.New(sha256.New, key)
	mac.Write(raw[:20])
	copy(raw[20:], mac.Sum(nil))
	return base64.RawURLEncoding.EncodeToString(raw[:]), nil
}

// DigestOutcome is the result of a Digest authorization.
type DigestOutcome struct {
	// Principal is set when the request authenticated.
	Principal *Principal
	// Stale: the response was right but the nonce has expired; the client
	// should retry with a new one without asking for the key again.
	Stale bool
	// Replayed: the nonce count was used before with this nonce by this
	// user.
	Replayed bool
}

// AuthenticateDigest checks a Digest (qop=auth) authorization of name. The
// response is checked first, the same way for unknown names, so that only a
// client that knows the key learns that a nonce is stale. A user's nonce
// counts must grow with every request of that user under one nonce, across
// all instances.
func (a *App) AuthenticateDigest(ctx context.Context, name string, d user.DigestRequest) (DigestOutcome, error) {
	key, err := a.nonceKey(ctx)
	if err != nil {
		return DigestOutcome{}, err
	}
	u, err := a.lookUpUser(ctx, name)
	if err != nil {
		return DigestOutcome{}, err
	}
	if !a.checkDigest(u, d) || !u.Enabled() {
		return DigestOutcome{}, nil
	}
	issued, ok := checkNonce(key, d.Nonce)
	if !ok {
		return DigestOutcome{}, nil
	}
	now := a.clock.Now()
	if now.Sub(issued) > DigestNonceLifetime || issued.Sub(now) > time.Minute {
		return DigestOutcome{Stale: true}, nil
	}
	nc, err := strconv.ParseInt(d.NC, 16, 64)
	if err != nil || nc <= 0 {
		return DigestOutcome{}, nil
	}
	var fresh bool
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		nonces := s.DigestNonces()
		if nc == 1 {
			// A nonce's first use is a fine moment to forget expired ones.
			if err := nonces.Purge(ctx, now.Add(-DigestNonceLifetime-time.Minute)); err != nil {
				return err
			}
		}
		var err error
		fresh, err = nonces.Use(ctx, d.Nonce, u.Name(), nc, issued)
		return err
	})
	if err != nil {
		return DigestOutcome{}, err
	}
	if !fresh {
		return DigestOutcome{Replayed: true}, nil
	}
	return DigestOutcome{Principal: &Principal{Name: u.Name(), Role: u.Role()}}, nil
}

// checkDigest tells whether d proves u's key. A user without Digest fails,
// after the same work.
func (a *App) checkDigest(u *user.User, d user.DigestRequest) bool {
	ha1, ok := a.secrets.DigestHA1(u.Name(), u.Credentials(), d.Algorithm)
	if !ok {
		if stand, err := a.unknownUser(); err == nil {
			ha1, _ = a.secrets.DigestHA1(stand.Name(), stand.Credentials(), d.Algorithm)
		}
	}
	return d.Check(ha1) && ok
}

// checkNonce tells when the service issued nonce, and whether it did.
func checkNonce(key []byte, nonce string) (time.Time, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(nonce)
	if err != nil || len(raw) != nonceRaw {
		return time.Time{}, false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(raw[:20])
	if !hmac.Equal(mac.Sum(nil)[:16], raw[20:]) {
		return time.Time{}, false
	}
	return time.Unix(int64(binary.BigEndian.Uint64(raw[:8])), 0).UTC(), true
}
