package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// Users lists API users.
func (a *App) Users(ctx context.Context, q ports.ListQuery) (page ports.Page[*user.User], err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return page, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		page, err = s.APIUsers().List(ctx, q)
		return err
	})
	return page, err
}

// User returns one API user.
func (a *App) User(ctx context.Context, id int64) (u *user.User, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return u, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		u, err = s.APIUsers().Get(ctx, id)
		return err
	})
	return u, err
}

// UserByName returns the API user of that name.
func (a *App) UserByName(ctx context.Context, name string) (u *user.User, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return u, err
	}
	if !user.ValidName(name) {
		return nil, errs.NotFoundf("user %q not found", name)
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		u, err = s.APIUsers().FindByName(ctx, name)
		if err == nil && u == nil {
			err = errs.NotFoundf("user %q not found", name)
		}
		return err
	})
	return u, err
}
