package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// UpdateUser changes a user's role and whether it is enabled (nil: keep).
// The change takes effect with the user's next request, on every instance.
func (a *App) UpdateUser(ctx context.Context, id int64, role *user.Role, enabled *bool) error {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
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
		return repo.Save(ctx, u)
	})
}
