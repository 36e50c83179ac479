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

// EnsureAPIUser makes the configured API user exist. With a key it creates
// the user or replaces its key, and makes it an enabled admin (the way back
// in for an operator who locked everyone out); without one it creates an
// admin with a random key only when no user exists, and returns that key so
// it can be shown once.
func (a *App) EnsureAPIUser(ctx context.Context, name, key string) (generatedKey string, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return generatedKey, err
	}
	// Instances starting together may both find no user and both add it;
	// the loser of that race finds the winner's user on its second try.
	for attempt := 0; attempt < 2; attempt++ {
		generatedKey, err = a.ensureAPIUser(ctx, name, key)
		if e, ok := errs.As(err); !ok || len(e.Fields) != 1 || e.Fields[0].Property != "name" {
			break
		}
	}
	return generatedKey, err
}

func (a *App) ensureAPIUser(ctx context.Context, name, key string) (generatedKey string, err error) {
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		generatedKey = ""
		repo := s.APIUsers()
		k := key
		if k == "" {
			n, err := repo.Count(ctx)
			if err != nil || n > 0 {
				return err
			}
			k = newKey()
			generatedKey = k
		}
		u, err := repo.FindByName(ctx, name)
		if err != nil {
			return err
		}
		if u == nil {
			creds, err := a.secrets.Credentials(name, k, false)
			if err != nil {
				return err
			}
			u, err := user.New(name, user.Admin, creds)
			if err != nil {
				return err
			}
			return repo.Add(ctx, u)
		}
		creds, err := a.secrets.Credentials(name, k, u.Digest())
		if err != nil {
			return err
		}
		u.RotateKey(creds)
		admin, enabled := user.Admin, true
		if err := (user.Admins{EnabledAdmins: 1}).Change(u, &admin, &enabled); err != nil {
			return err
		}
		return repo.Save(ctx, u)
	})
	return generatedKey, err
}
