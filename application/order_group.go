package application

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// orderRequest is one call of a use case that changes an order and its
// stock (shipping it, reserving or releasing its picking list), permitted
// and waiting to run in a group.
type orderRequest struct {
	ctx context.Context
	ref OrderRef
	// at is the warehouse the call names; nil is the default one.
	at   *stock.WarehouseSpec
	user string
	// suppressMail keeps a shipment's status mail back.
	suppressMail bool
	// saved, when set, receives the order as the transaction saved it.
	saved **order.Order
}

// maxOrderGroup is the most requests one transaction runs.
const maxOrderGroup = 100

// orderUseCase is what a group does to each of its orders: op makes the
// operation on the order (nil: nothing to do), where at resolves the
// warehouse the request names; after, if set, runs with the group's last
// writes for each order whose operation applied, at the group's time.
type orderUseCase struct {
	cause string
	op    func(o *order.Order, at func() (stock.LocationSpec, error)) (stock.Operation, error)
	after func(ctx context.Context, s ports.Store, r orderRequest, o *order.Order, now time.Time) error
}

// group runs reqs in one transaction (together). When the transaction
// fails as a whole (a storage error, retries used up), every request of a
// larger group runs alone instead, so that whatever broke it fails only
// the request it belongs to; a group of one gets the error.
func (a *App) group(uc orderUseCase, reqs []orderRequest) []verdict {
	verdicts := make([]verdict, len(reqs))
	// The group runs on behalf of all its members: the leader's request
	// ending does not end it (together answers a member whose caller has
	// gone before it starts).
	ctx := WithCause(context.WithoutCancel(reqs[0].ctx), event.Cause{Type: uc.cause})
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		clear(verdicts)
		return a.together(ctx, s, uc, reqs, verdicts)
	})
	switch {
	case err != nil && len(reqs) == 1:
		verdicts[0] = verdict{err: err}
	case err != nil:
		for i := range verdicts {
			verdicts[i] = verdict{alone: true}
		}
	}
	return verdicts
}

// alone runs one request: a group of its own, again if its order was
// created while the group looked for it (a few times: an order the group's
// lock keeps missing while the order's own lookup finds it is a fault).
func (a *App) alone(uc orderUseCase, r orderRequest) error {
	for range 3 {
		if v := a.group(uc, []orderRequest{r})[0]; !v.alone {
			return v.err
		}
	}
	return fmt.Errorf("order %+v: its lookup finds it, the lock of its group does not", r.ref)
}

// together is the group's transaction: one lock of their orders (in id
// order, the lock order of every writer; it serialises concurrent calls
// on one order, so the second finds what the first did), one working set
// for all their products (one product lock), one save and one commit.
// Each order's operation is applied alone (WorkingSet.Apply takes a
// failing one back), so a request that fails gets its own error and
// changes nothing, and the others go through. It sets each request's
// verdict; an error fails the whole group.
//
// Two requests may name the same order: the later one runs alone after
// the group (and finds what the earlier one's commit left). A request
// whose order does not exist gets the answer a missing order gets.
func (a *App) together(ctx context.Context, s ports.Store, uc orderUseCase, reqs []orderRequest, verdicts []verdict) error {
	var ids []int64
	var numbers []string
	for i, r := range reqs {
		if err := r.ctx.Err(); err != nil {
			// Its caller has gone: it is answered and changes nothing.
			verdicts[i].err = err
			continue
		}
		switch {
		case r.ref.Number != "":
			numbers = append(numbers, r.ref.Number)
		default:
			ids = append(ids, r.ref.ID)
		}
	}
	orders, err := s.Orders().GetMany(ctx, ids, numbers)
	if err != nil {
		return err
	}
	byID := make(map[int64]*order.Order, len(orders))
	byNumber := make(map[string]*order.Order, len(orders))
	for _, o := range orders {
		byID[o.ID()], byNumber[o.Number()] = o, o
	}

	// Each request's operation, in the order the requests came.
	type planned struct {
		req   int
		order *order.Order
		op    stock.Operation
	}
	var ops []planned
	taken := map[int64]bool{}
	var def int64
	var lookUpErr error
	lookedUp := false
	for i, r := range reqs {
		if verdicts[i].err != nil {
			continue
		}
		o := byID[r.ref.ID]
		if r.ref.Number != "" {
			o = byNumber[r.ref.Number]
		}
		if o == nil {
			if verdicts[i].err, err = missing(ctx, s, r.ref); err != nil {
				return err
			}
			verdicts[i].alone = verdicts[i].err == nil
			continue
		}
		if taken[o.ID()] {
			verdicts[i].alone = true
			continue
		}
		taken[o.ID()] = true
		// The default warehouse is looked up once, and only when a request
		// needs it.
		at := func() (stock.LocationSpec, error) {
			if r.at == nil && !lookedUp {
				if def, lookUpErr = defaultWarehouse(ctx, s); lookUpErr != nil {
					return stock.LocationSpec{}, lookUpErr
				}
				lookedUp = true
			}
			return order.ShipFrom(r.at, def)
		}
		op, err := uc.op(o, at)
		switch {
		case lookUpErr != nil:
			return lookUpErr
		case err != nil || op == nil:
			verdicts[i].err = err
			continue
		}
		ops = append(ops, planned{req: i, order: o, op: op})
	}
	if len(ops) == 0 {
		return nil
	}

	scope := make([]stock.Operation, len(ops))
	for i, p := range ops {
		scope[i] = p.op
	}
	now := a.clock.Now()
	ws, err := s.Stock().Load(ctx, stock.ScopeOf(scope...), now)
	if err != nil {
		return err
	}
	var done []planned
	for _, p := range ops {
		if err := ws.Apply(p.op, stock.Reference{User: reqs[p.req].user}); err != nil {
			verdicts[p.req].err = err
			continue
		}
		if saved := reqs[p.req].saved; saved != nil {
			*saved = p.order
		}
		done = append(done, p)
	}
	if len(done) == 0 {
		return nil
	}
	changed := make([]*order.Order, len(done))
	for i, d := range done {
		changed[i] = d.order
	}
	slices.SortFunc(changed, func(x, y *order.Order) int { return cmp.Compare(x.ID(), y.ID()) })
	return s.Last(ctx, func() error {
		if err := s.Stock().Save(ctx, ws); err != nil {
			return err
		}
		if err := s.Orders().Save(ctx, changed...); err != nil {
			return err
		}
		if uc.after == nil {
			return nil
		}
		for _, d := range done {
			if err := uc.after(ctx, s, reqs[d.req], d.order, now); err != nil {
				return err
			}
		}
		return nil
	})
}
