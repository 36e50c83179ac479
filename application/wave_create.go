package application

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/wave"
	"github.com/shopstock/inventory/ports"
)

// NewWave is a request for a picking wave: at a warehouse (nil: the
// default one), the orders named, or else the first Limit Open orders
// that can be filled.
type NewWave struct {
	Warehouse *stock.WarehouseSpec
	OrderIDs  []int64
	Limit     int
	User      string
}

// CreateWave reserves, per order all or nothing and by the rules of a
// picking list, what the orders still need at the warehouse, and makes a
// wave of their reservations there. Named orders that cannot be filled,
// and Open orders passed over on the way to Limit, are skipped with their
// shortfalls and left untouched.
//
// It is set-based: the orders are locked in one statement (in id order),
// their products once, each order is reserved in one working set (a
// failing order is taken back alone), and the stock, the orders and the
// wave are written in bulk.
func (a *App) CreateWave(ctx context.Context, req NewWave) (*wave.Wave, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CausePickingWaves})
	var out *wave.Wave
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		spec, err := shipWarehouse(ctx, s, req.Warehouse)
		if err != nil {
			return err
		}
		c := waveCreation{s: s, spec: spec, now: a.clock.Now()}
		if len(req.OrderIDs) > 0 {
			err = c.named(ctx, req.OrderIDs)
		} else {
			err = c.first(ctx, req.Limit)
		}
		if err != nil {
			return err
		}
		if c.warehouseID == 0 {
			// No order was tried: the warehouse must still exist.
			var sc stock.Scope
			sc.AddLocation(spec)
			ws, err := s.Stock().Load(ctx, sc, c.now)
			if err != nil {
				return err
			}
			at, err := ws.Resolve(spec)
			if err != nil {
				return errs.Within("warehouse", err)
			}
			c.warehouseID = at.WarehouseID
		}
		if err := s.Orders().Save(ctx, c.filled...); err != nil {
			return err
		}
		w, err := c.wave(ctx, req.User)
		if err != nil {
			return err
		}
		if err := s.Waves().Add(ctx, w); err != nil {
			return err
		}
		out = w
		return nil
	})
	return out, err
}

func (req NewWave) check() error {
	switch {
	case len(req.OrderIDs) > 0 && req.Limit != 0:
		return errs.InvalidFields(errs.FieldError{Property: "limit", Message: "cannot be given with orderIds"})
	case req.OrderIDs != nil && len(req.OrderIDs) == 0:
		return errs.InvalidFields(errs.FieldError{Property: "orderIds", Message: "must name at least one order"})
	case len(req.OrderIDs) > wave.MaxOrders:
		return errs.InvalidFields(errs.FieldError{Property: "orderIds", Message: fmt.Sprintf("must name at most %d orders", wave.MaxOrders)})
	case req.OrderIDs == nil && (req.Limit < 1 || req.Limit > wave.MaxOrders):
		return errs.InvalidFields(errs.FieldError{Property: "limit", Message: fmt.Sprintf("must be 1..%d", wave.MaxOrders)})
	}
	seen := map[int64]bool{}
	for _, id := range req.OrderIDs {
		if id <= 0 {
			return errs.InvalidFields(errs.FieldError{Property: "orderIds", Message: "must be positive integers"})
		}
		if seen[id] {
			return errs.InvalidFields(errs.FieldError{Property: "orderIds", Message: fmt.Sprintf("names order %d twice", id)})
		}
		seen[id] = true
	}
	return nil
}

// waveCreation is one CreateWave transaction under way.
type waveCreation struct {
	s           ports.Store
	spec        stock.LocationSpec
	now         time.Time
	warehouseID int64
	filled      []*order.Order
	skipped     []wave.Skipped
	binCodes    map[int64]string
}

// named reserves the orders named, each that can be filled.
func (c *waveCreation) named(ctx context.Context, ids []int64) error {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	orders, err := c.s.Orders().GetMany(ctx, sorted, nil)
	if err != nil {
		return err
	}
	if len(orders) < len(sorted) {
		for _, id := range sorted {
			if !slices.ContainsFunc(orders, func(o *order.Order) bool { return o.ID() == id }) {
				return errs.InvalidFields(errs.FieldError{Property: "orderIds", Message: fmt.Sprintf("order %d does not exist", id)})
			}
		}
	}
	_, err = c.reserve(ctx, orders, len(orders))
	return err
}

// first reserves the first limit Open orders by ascending id that can be
// filled, reading candidates a chunk at a time: the orders of each chunk
// are locked above the ids of the chunks before, so the orders are still
// locked in id order (a later chunk's products may come after products
// already locked; a deadlock that follows is retried like any). It stops
// after passing over wave.MaxPassedOver orders.
func (c *waveCreation) first(ctx context.Context, limit int) error {
	var after int64
	for len(c.filled) < limit && len(c.skipped) < wave.MaxPassedOver {
		need := limit - len(c.filled)
		ids, err := c.s.Waves().OpenOrderIDs(ctx, after, need+need/2+8)
		if err != nil || len(ids) == 0 {
			return err
		}
		after = ids[len(ids)-1]
		orders, err := c.s.Orders().GetMany(ctx, ids, nil)
		if err != nil {
			return err
		}
		// Locked now: an order that left Open since it was read is not a
		// candidate any more.
		orders = slices.DeleteFunc(orders, func(o *order.Order) bool { return o.Status() != order.StatusOpen })
		if _, err := c.reserve(ctx, orders, need); err != nil {
			return err
		}
	}
	return nil
}

// reserve tries the orders in id order until want of them are filled: an
// order another wave still picks, or one that cannot be reserved whole,
// is skipped. One working set serves them all.
func (c *waveCreation) reserve(ctx context.Context, orders []*order.Order, want int) (int, error) {
	if len(orders) == 0 {
		return 0, nil
	}
	ids := make([]int64, len(orders))
	for i, o := range orders {
		ids[i] = o.ID()
	}
	busy, err := c.s.Waves().WavesOf(ctx, ids)
	if err != nil {
		return 0, err
	}
	ops := make([]stock.Operation, 0, len(orders))
	for _, o := range orders {
		ops = append(ops, order.PickingList{Order: o, At: c.spec})
	}
	ws, err := c.s.Stock().Load(ctx, stock.ScopeOf(ops...), c.now)
	if err != nil {
		return 0, err
	}
	at, err := ws.Resolve(c.spec)
	if err != nil {
		return 0, errs.Within("warehouse", err)
	}
	c.warehouseID = at.WarehouseID
	if c.binCodes == nil {
		c.binCodes = map[int64]string{}
	}
	filled := 0
	for i, o := range orders {
		if filled == want || len(c.skipped) >= wave.MaxPassedOver {
			break
		}
		if w, ok := busy[o.ID()]; ok && wave.Busy(o) {
			c.skipped = append(c.skipped, wave.Skipped{OrderID: o.ID(),
				Shortfalls: []wave.Shortfall{{Message: fmt.Sprintf("order %s is picked in picking wave %d", o.Number(), w)}}})
			continue
		}
		if err := ws.Apply(ops[i], stock.Reference{}); err != nil {
			if errs.KindOf(err) != errs.Invalid {
				return 0, err
			}
			c.skipped = append(c.skipped, wave.Skipped{OrderID: o.ID(), Shortfalls: wave.ShortfallsOf(o, err)})
			continue
		}
		if !orderHoldsIn(o, c.warehouseID) {
			c.skipped = append(c.skipped, wave.Skipped{OrderID: o.ID(),
				Shortfalls: []wave.Shortfall{{Message: fmt.Sprintf("order %s has nothing to pick", o.Number())}}})
			continue
		}
		for _, d := range o.Details() {
			for _, h := range d.Reservations() {
				c.binCodes[h.BinLocationID] = ws.BinCode(h.BinLocationID)
			}
		}
		c.filled = append(c.filled, o)
		filled++
	}
	return filled, c.s.Stock().Save(ctx, ws)
}

// orderHoldsIn tells whether an order holds stock in a warehouse.
func orderHoldsIn(o *order.Order, warehouseID int64) bool {
	for _, d := range o.Details() {
		for _, h := range d.Reservations() {
			if h.WarehouseID == warehouseID {
				return true
			}
		}
	}
	return false
}

// wave makes the wave of the filled orders' reservations.
func (c *waveCreation) wave(ctx context.Context, user string) (*wave.Wave, error) {
	var articles []int64
	for _, o := range c.filled {
		for _, d := range o.Details() {
			articles = append(articles, d.ArticleDetailID())
		}
	}
	slices.Sort(articles)
	items, err := c.s.Waves().Articles(ctx, slices.Compact(articles))
	if err != nil {
		return nil, err
	}
	item := func(id int64) (string, string) { return items[id].Number, items[id].EAN }
	code := func(bin int64) string { return c.binCodes[bin] }
	var picks []wave.Pick
	for _, o := range c.filled {
		picks = append(picks, wave.PicksOf(o, c.warehouseID, code, item)...)
	}
	return wave.New(c.warehouseID, c.now, user, picks, c.skipped)
}
