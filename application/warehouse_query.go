package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// Warehouse reads one warehouse.
func (a *App) Warehouse(ctx context.Context, id int64) (w *warehouse.Warehouse, err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return w, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		w, err = s.Warehouses().Get(ctx, id)
		return err
	})
	return w, err
}

// Warehouses reads one page of warehouses.
func (a *App) Warehouses(ctx context.Context, q ports.ListQuery) (p ports.Page[*warehouse.Warehouse], err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.Warehouses().List(ctx, q)
		return err
	})
	return p, err
}
