package application

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"

	"github.com/shopstock/inventory/ports"
)

// hashKey keeps API keys out of storage: keys are long random strings, so a
// plain SHA-256 is enough and keeps per-request checks cheap.
func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// EnsureAPIUser makes the configured API user exist. With a key it creates
// the user or replaces its key; without one it creates a user with a random
// key only when no user exists, and returns that key so it can be shown once.
func (a *App) EnsureAPIUser(ctx context.Context, name, key string) (generatedKey string, err error) {
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		k := key
		if k == "" {
			n, err := s.APIUsers().Count(ctx)
			if err != nil || n > 0 {
				return err
			}
			k = rand.Text() + rand.Text()
			generatedKey = k
		}
		return s.APIUsers().Upsert(ctx, name, hashKey(k))
	})
	return generatedKey, err
}

// Authenticate tells whether name and key belong to an API user.
func (a *App) Authenticate(ctx context.Context, name, key string) (ok bool, err error) {
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		u, err := s.APIUsers().FindByName(ctx, name)
		if err != nil || u == nil {
			return err
		}
		ok = subtle.ConstantTimeCompare([]byte(u.KeyHash), []byte(hashKey(key))) == 1
		return nil
	})
	return ok, err
}
