package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// BinLocationWithStock is a bin location and the stock on it.
type BinLocationWithStock struct {
	BinLocation *warehouse.BinLocation
	Mappings    []ports.MappingView
}

// BinLocation reads one bin location with its mappings.
func (a *App) BinLocation(ctx context.Context, id int64) (v BinLocationWithStock, err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return v, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		if v.BinLocation, err = s.BinLocations().Get(ctx, id); err != nil {
			return err
		}
		v.Mappings, err = s.Stock().MappingsOfBinLocation(ctx, id)
		return err
	})
	return v, err
}

// BinLocations reads one page of bin locations.
func (a *App) BinLocations(ctx context.Context, q ports.ListQuery) (p ports.Page[*warehouse.BinLocation], err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.BinLocations().List(ctx, q)
		return err
	})
	return p, err
}
