package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// UpdateUser changes a user's role and whether it is enabled (nil: keep):
// ChangeUser without Digest.
func (a *App) UpdateUser(ctx context.Context, id int64, role *user.Role, enabled *bool) error {
	_, err := a.ChangeUser(ctx, id, role, enabled, nil)
	return err
}

// ChangeUser changes a user's role, whether it is enabled and whether it may
// use Digest (nil: keep), all or nothing. Turning Digest on issues a new key,
// because what Digest checks is made from the key: it is returned here and
// never again (otherwise key is empty), and the old key fails from the
// commit on. Turning it off keeps the key. The change takes effect with the
// user's next request, on every instance.
func (a *App) ChangeUser(ctx context.Context, id int64, role *user.Role, enabled, digest *bool) (key string, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return "", err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		key = ""
		repo := s.APIUsers()
		admins, err := repo.EnabledAdmins(ctx)
		if err != nil {
			return err
		}
		u, err := repo.Get(ctx, id)
		if err != nil {
			return err
		}
		if err := (user.Admins{EnabledAdmins: admins}).Change(u, role, enabled); err != nil {
			return err
		}
		switch {
		case digest == nil || *digest == u.Digest():
		case *digest:
			key = newKey()
			creds, err := a.secrets.Credentials(u.Name(), key, true)
			if err != nil {
				return err
			}
			u.RotateKey(creds)
		default:
			u.DisableDigest()
		}
		return repo.Save(ctx, u)
	})
	if err != nil {
		return "", err
	}
	return key, nil
}
