package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/ports"
)

// CountView is a count as reads show it: the count, and what moved on its
// bins since the snapshot, other than its own booking (MovedSince).
type CountView struct {
	*count.Count
	Moved map[ports.CountKey]int
}

// Count is one count with what moved since.
func (a *App) Count(ctx context.Context, id int64) (CountView, error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return CountView{}, err
	}
	var v CountView
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		c, err := s.Counts().Get(ctx, id)
		if err != nil {
			return err
		}
		v, err = countView(ctx, s, c)
		return err
	})
	return v, err
}

// Counts lists counts by the list rules, each with what moved since.
func (a *App) Counts(ctx context.Context, q ports.ListQuery) (ports.Page[CountView], error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return ports.Page[CountView]{}, err
	}
	var out ports.Page[CountView]
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err := s.Counts().List(ctx, q)
		if err != nil {
			return err
		}
		out = ports.Page[CountView]{Total: p.Total, Items: make([]CountView, len(p.Items))}
		for i, c := range p.Items {
			if out.Items[i], err = countView(ctx, s, c); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

func countView(ctx context.Context, s ports.Store, c *count.Count) (CountView, error) {
	moved, err := s.Counts().MovedSince(ctx, c)
	return CountView{Count: c, Moved: moved}, err
}

// OpenCountOn is the Open count that covers a bin, 0 when none does.
func (a *App) OpenCountOn(ctx context.Context, binID int64) (int64, error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return 0, err
	}
	var id int64
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
		id, err = s.Counts().OpenOn(ctx, binID)
		return err
	})
	return id, err
}
