package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/wave"
	"github.com/shopstock/inventory/ports"
)

// Wave is one picking wave with its tasks.
func (a *App) Wave(ctx context.Context, id int64) (*wave.Wave, error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return nil, err
	}
	var out *wave.Wave
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
		out, err = s.Waves().Get(ctx, id)
		return err
	})
	return out, err
}

// Waves lists picking waves.
func (a *App) Waves(ctx context.Context, q ports.ListQuery) (ports.Page[*wave.Wave], error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return ports.Page[*wave.Wave]{}, err
	}
	var out ports.Page[*wave.Wave]
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
		out, err = s.Waves().List(ctx, q)
		return err
	})
	return out, err
}
