package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// RotateUserKey gives the user a new random key, returned here and never
// again; Digest stays on or off. The old key fails from the commit on, on
// every instance: no instance keeps credentials beyond a request.
func (a *App) RotateUserKey(ctx context.Context, id int64) (key string, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return key, err
	}
	key = newKey()
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		u, err := s.APIUsers().Get(ctx, id)
		if err != nil {
			return err
		}
		creds, err := a.secrets.Credentials(u.Name(), key, u.Digest())
		if err != nil {
			return err
		}
		u.RotateKey(creds)
		return s.APIUsers().Save(ctx, u)
	})
	if err != nil {
		return "", err
	}
	return key, nil
}
