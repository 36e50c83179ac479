// Package application holds the use cases: each loads aggregates through the
// ports, lets them decide, and saves them. One use case a file.
package application

import (
	"github.com/shopstock/inventory/ports"
)

// App is the set of use cases the adapters drive.
type App struct {
	uow   ports.UnitOfWork
	clock ports.Clock
	nonce nonceSecret // the Digest nonce key, read once: it never changes
}

// New assembles the use cases over the given ports.
func New(uow ports.UnitOfWork, clock ports.Clock) *App {
	return &App{uow: uow, clock: clock}
}
