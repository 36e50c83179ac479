package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/wave"
	"github.com/shopstock/inventory/ports"
)

// WaveTaskConfirmed is a task after a confirmation, with its wave.
type WaveTaskConfirmed struct {
	Wave *wave.Wave
	Task *wave.Task
}

// ConfirmWaveTask records what a picker scanned at a task (wave.Confirm).
// A short task also releases what was not found, puts the bin up for a
// count, and reserves the shortfall on the warehouse's other bins, adding
// tasks; what none holds is listed on the wave as short. Locks: the wave,
// then the task's orders, then their products.
func (a *App) ConfirmWaveTask(ctx context.Context, waveID, taskID int64, c wave.Confirmation) (WaveTaskConfirmed, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return WaveTaskConfirmed{}, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CausePickingWaves})
	var out WaveTaskConfirmed
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		w, err := s.Waves().Get(ctx, waveID)
		if err != nil {
			return err
		}
		now := a.clock.Now()
		releases, err := w.Confirm(taskID, c, now)
		if err != nil {
			return err
		}
		task, err := w.Task(taskID)
		if err != nil {
			return err
		}
		if c.Short {
			if err := a.shortPick(ctx, s, w, task, releases, now); err != nil {
				return err
			}
		}
		if err := s.Waves().Save(ctx, w); err != nil {
			return err
		}
		out = WaveTaskConfirmed{Wave: w, Task: task}
		return nil
	})
	return out, err
}

// shortPick is the stock side of a short task (wave.ShortPick) and the
// count of its bin.
func (a *App) shortPick(ctx context.Context, s ports.Store, w *wave.Wave, task *wave.Task, releases []wave.Release, now time.Time) error {
	if len(releases) > 0 {
		var ids []int64
		for _, r := range releases {
			ids = append(ids, r.OrderID)
		}
		orders, err := s.Orders().GetMany(ctx, ids, nil)
		if err != nil {
			return err
		}
		byID := make(map[int64]*order.Order, len(orders))
		for _, o := range orders {
			byID[o.ID()] = o
		}
		op := wave.ShortPick{Wave: w, Warehouse: stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: w.WarehouseID()}},
			Releases: releases, Orders: byID}
		if err := applyOne(ctx, s, now, op, stock.Reference{}); err != nil {
			return err
		}
		if err := s.Orders().Save(ctx, orders...); err != nil {
			return err
		}
	}
	_, err := a.OpenCountForBin(ctx, s, w.WarehouseID(), task.Item().BinLocationID)
	return err
}
