package application

import (
	"context"
	"crypto/rand"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// newKey is a fresh random API key: 52 base32 characters, 260 bits.
func newKey() string { return rand.Text() + rand.Text() }

// EnsuredAPIUser tells what EnsureAPIUser found and did.
type EnsuredAPIUser struct {
	// GeneratedKey is the random key of an admin it created, to be shown
	// once; empty otherwise.
	GeneratedKey string
	// Differs names what the stored user has other than the configuration
	// says, in this order: "key", "role" (not an admin), "enabled" (it is
	// disabled). The stored user is left as it is.
	Differs []string
}

// EnsureAPIUser makes the configured API user exist, as an admin: with a key
// it creates the user with that key; without one it creates the user with a
// random key only when no user exists, and returns that key so it can be
// shown once. A user that exists is never changed: another admin may have
// disabled, demoted or rotated it on purpose, and a restart must not undo
// that. What differs from the configuration is returned instead.
func (a *App) EnsureAPIUser(ctx context.Context, name, key string) (ensured EnsuredAPIUser, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return ensured, err
	}
	// Instances starting together may both find no user and both add it;
	// the loser of that race finds the winner's user on its second try.
	for attempt := 0; attempt < 2; attempt++ {
		ensured, err = a.ensureAPIUser(ctx, name, key)
		if e, ok := errs.As(err); !ok || len(e.Fields) != 1 || e.Fields[0].Property != "name" {
			break
		}
	}
	return ensured, err
}

func (a *App) ensureAPIUser(ctx context.Context, name, key string) (ensured EnsuredAPIUser, err error) {
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		ensured = EnsuredAPIUser{}
		repo := s.APIUsers()
		u, err := repo.FindByName(ctx, name)
		if err != nil {
			return err
		}
		if u != nil {
			if key != "" && !a.secrets.CheckKey(name, u.Credentials(), key) {
				ensured.Differs = append(ensured.Differs, "key")
			}
			if u.Role() != user.Admin {
				ensured.Differs = append(ensured.Differs, "role")
			}
			if !u.Enabled() {
				ensured.Differs = append(ensured.Differs, "enabled")
			}
			return nil
		}
		k := key
		if k == "" {
			n, err := repo.Count(ctx)
			if err != nil || n > 0 {
				return err
			}
			k = newKey()
			ensured.GeneratedKey = k
		}
		creds, err := a.secrets.Credentials(name, k, false)
		if err != nil {
			return err
		}
		nu, err := user.New(name, user.Admin, creds)
		if err != nil {
			return err
		}
		return repo.Add(ctx, nu)
	})
	return ensured, err
}
