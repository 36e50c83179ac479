package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// DeleteUser removes an API user, but never the last enabled admin.
func (a *App) DeleteUser(ctx context.Context, id int64) error {
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
		if err := (user.Admins{EnabledAdmins: admins}).CheckRemovable(u); err != nil {
			return err
		}
		return repo.Delete(ctx, id)
	})
}
