package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// CreateUser adds an enabled API user with a new random key, which is
// returned here and never again.
func (a *App) CreateUser(ctx context.Context, name string, role user.Role) (id int64, key string, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return id, key, err
	}
	key = newKey()
	u, err := user.New(name, role, key)
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
