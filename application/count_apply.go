package application

import (
	"context"
	"errors"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// CountApplied is what applying a count did: the reservations it
// released because the stock no longer carries them.
type CountApplied struct {
	ID       int64
	Released []order.Released
}

// applyAttempts bounds the rereads of the orders holding reservations on
// the count's bins, when another reservation came between their read and
// the products' lock.
const applyAttempts = 5

// ApplyCount books an Open count (count.Applying) through the stock
// engine, in one transaction with the released reservations and the
// count's new status: it applies exactly once. The orders holding
// reservations on its counted bins are locked before the products, the
// lock order of every shipment. With an idempotency key in meta
// (optional), the rules of the batches apply.
func (a *App) ApplyCount(ctx context.Context, meta BatchMeta, id int64, render func(CountApplied) ([]byte, error)) (BatchOutcome, error) {
	if err := permit(ctx, access.WriteStock); err != nil {
		return BatchOutcome{}, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CauseCountsApply, IdempotencyKey: meta.Key})
	for attempt := 1; ; attempt++ {
		out, err := a.idempotent(ctx, meta, writesItself(func(ctx context.Context, s ports.Store, now time.Time) ([]byte, error) {
			c, err := s.Counts().Get(ctx, id)
			if err != nil {
				return nil, err
			}
			var counted []int64
			for _, b := range c.Bins() {
				if b.Counted {
					counted = append(counted, b.BinLocationID)
				}
			}
			holders, err := s.Counts().Holders(ctx, counted)
			if err != nil {
				return nil, err
			}
			op := &count.Applying{Count: c, Holders: holders}
			if err := applyOne(ctx, s, now, op, stock.Reference{IdempotencyKey: meta.Key, User: meta.User}); err != nil {
				return nil, err
			}
			if len(op.Changed) > 0 {
				if err := s.Orders().Save(ctx, op.Changed...); err != nil {
					return nil, err
				}
			}
			if err := s.Counts().Save(ctx, c); err != nil {
				return nil, err
			}
			return render(CountApplied{ID: c.ID(), Released: op.Released})
		}))
		if errors.Is(err, count.ErrHoldersChanged) && attempt < applyAttempts {
			continue
		}
		return out, err
	}
}

// CancelCount drops an Open count: nothing is booked, and its bins are
// free for another count.
func (a *App) CancelCount(ctx context.Context, id int64) error {
	if err := permit(ctx, access.WriteStock); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		c, err := s.Counts().Get(ctx, id)
		if err != nil {
			return err
		}
		if err := c.Cancel(); err != nil {
			return err
		}
		return s.Counts().Save(ctx, c)
	})
}
