package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// LotRead is a lot as reads show it, with whether it is expired: whether
// its expiry is counted, so that it agrees with the figures (expiredStock,
// availableStock). Taking stock goes by the date itself (stock.ExpiryCutoff)
// and so refuses a lot from midnight, while the figures and this flag follow
// when ExpireLots counts it, at most one of its runs later.
type LotRead struct {
	ports.LotView
	Expired bool
}

// Lot reads one lot with its stock and where it lies.
func (a *App) Lot(ctx context.Context, id int64) (l LotRead, err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return l, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		v, err := s.Lots().Get(ctx, id)
		l = LotRead{LotView: v}
		return err
	})
	l.Expired = l.Lot.ExpiryCounted
	return l, err
}

// Lots reads one page of lots.
func (a *App) Lots(ctx context.Context, q ports.ListQuery) (p ports.Page[LotRead], err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return p, err
	}
	var views ports.Page[ports.LotView]
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		views, err = s.Lots().List(ctx, q)
		return err
	})
	return lotReads(views), err
}

// LotsNumbered finds the lots whose number is exactly number, of any
// article detail (the console's search).
func (a *App) LotsNumbered(ctx context.Context, number string) (out []LotRead, err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return nil, err
	}
	var views []ports.LotView
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		views, err = s.Lots().Numbered(ctx, number)
		return err
	})
	return lotReads(ports.Page[ports.LotView]{Items: views}).Items, err
}

func lotReads(views ports.Page[ports.LotView]) ports.Page[LotRead] {
	out := ports.Page[LotRead]{Total: views.Total, Items: make([]LotRead, len(views.Items))}
	for i, v := range views.Items {
		out.Items[i] = LotRead{LotView: v, Expired: v.Lot.ExpiryCounted}
	}
	return out
}
