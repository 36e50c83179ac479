// Package application holds the use cases: each loads aggregates through the
// ports, lets them decide, and saves them. One use case a file.
package application

import (
	"context"
	"sync"

	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// App is the set of use cases the adapters drive.
type App struct {
	uow     ports.UnitOfWork
	clock   ports.Clock
	secrets ports.Secrets
	// unknownUser stands in for a name nobody has, so that a wrong name
	// costs the same checking as a wrong key; made once, when first needed.
	unknownUser func() (*user.User, error)
	// shipping and reserving combine concurrent ShipOrder and
	// ReservePickingList calls (order_group.go).
	shipping, reserving *combiner[orderRequest]
}

// Option adjusts how New assembles the use cases.
type Option func(*options)

type options struct {
	noEvents    bool
	afterRecord func(ctx context.Context)
}

// WithoutEvents records no events, only the figures' snapshots (which the
// lists filter on): for measuring what recording events costs (test/bench).
// A service running so breaks the feed's guarantee.
func WithoutEvents() Option { return func(o *options) { o.noEvents = true } }

// WithAfterRecordingEvents runs fn in every transaction that recorded
// events, after recording them and before committing: tests use it to make
// commits slow and so widen the races the change feed must survive.
func WithAfterRecordingEvents(fn func(ctx context.Context)) Option {
	return func(o *options) { o.afterRecord = fn }
}

// New assembles the use cases over the given ports. Every write transaction
// records the snapshots of the figures it changed and its events (see
// committingUoW). What storage keeps to check keys is made and read with
// secrets.
func New(uow ports.UnitOfWork, clock ports.Clock, secrets ports.Secrets, opts ...Option) *App {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	uow = &committingUoW{UnitOfWork: uow, clock: clock, noEvents: o.noEvents, afterRecord: o.afterRecord}
	unknown := sync.OnceValues(func() (*user.User, error) {
		creds, err := secrets.Credentials("unknown", "no key matches this one, it is never handed out", true)
		return user.UnmarshalFromDatabase(0, "unknown", user.Reader, false, creds), err
	})
	a := &App{uow: uow, clock: clock, secrets: secrets, unknownUser: unknown}
	a.shipping, a.reserving = a.newShipping(), a.newReserving()
	return a
}
