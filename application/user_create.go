package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// CreateUser adds an enabled API user with a new random key, which is
// returned here and never again; digest lets the user use HTTP Digest too.
func (a *App) CreateUser(ctx context.Context, name string, role user.Role, digest bool) (id int64, key string, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return id, key, err
	}
	key = newKey()
	creds, err := a.secrets.Credentials(name, key, digest)
	if err != nil {
		return 0, "", err
	}
	u, err := user.New(name, role, creds)
	if err != nil {
		return 0, "", err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		return s.APIUsers().Add(ctx, u)
	})
	if err != nil {
		return 0, "", err
	}
	return u.ID(), key, nil
}
