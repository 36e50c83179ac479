// Package ports holds the interfaces between the application and the world:
// what the use cases need (storage, clock, mail) and nothing of how.
package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/warehouse"
)

// UnitOfWork runs use cases against storage.
type UnitOfWork interface {
	// Write runs fn in one write transaction that commits when fn returns nil.
	// Serialization failures and deadlocks are retried, so fn must be
	// repeatable: it may run more than once and must keep no state outside.
	Write(ctx context.Context, fn func(ctx context.Context, s Store) error) error
	// Read runs fn on a read-only view: the primary's, or a replica's when
	// ctx allows it (ReadFromReplica). A read a replica fails runs again on
	// the primary, so fn must be repeatable, as Write's.
	Read(ctx context.Context, fn func(ctx context.Context, s Store) error) error
}

// Store hands out the repositories of one transaction.
type Store interface {
	Warehouses() WarehouseRepository
	BinLocations() BinLocationRepository
	ArticleDetails() ArticleDetailRepository
	Stock() StockRepository
	Ledger() LedgerRepository
	Idempotency() IdempotencyStore
	Orders() OrderRepository
	Returns() ReturnRepository
	PurchaseOrders() PurchaseOrderRepository
	Transfers() TransferRepository
	Outbox() OutboxRepository
	APIUsers() APIUserRepository
	DigestNonces() DigestNonceStore
	Events() EventRepository
	Figures() FigureReader
	Webhooks() WebhookRepository
	Sessions() SessionRepository
	Lots() LotRepository
	Scans() ScanFinder
	Counts() CountRepository
	Waves() WaveRepository
	RowCounts() RowCounts
	// Saved is what this transaction's repositories wrote so far (see
	// Saved); empty outside a write transaction.
	Saved() *Saved
	// Together runs fn, port calls that only write (the Save of stock and
	// of orders), so that their statements reach the database in one round
	// trip where the store can send them so; what they wrote is stored
	// when Together returns. A use case that ends by writing several
	// aggregates writes them together: on a busy product, every round
	// trip its lock is held is time other writers wait.
	Together(ctx context.Context, fn func() error) error
	// Last runs fn, the use case's last writes (port calls that only
	// write), as Together does, but where the store can it holds their
	// statements and sends them with the commit step's writes and the
	// COMMIT, in one round trip: the locks the use case took are then held
	// for one round trip less. The use case reads and writes nothing after
	// it; the commit step calls Flush before it reads.
	Last(ctx context.Context, fn func() error) error
	// Flush sends the writes Last holds, so that what follows reads them.
	Flush(ctx context.Context) error
}

// Clock tells the time; the domain never reads it itself.
type Clock interface{ Now() time.Time }

// WarehouseRepository stores warehouses. Inside Write, Get locks the row.
type WarehouseRepository interface {
	// Add stores w together with its unknown bin location (both from
	// warehouse.Holders.Create) and assigns both ids.
	Add(ctx context.Context, w *warehouse.Warehouse, unknown *warehouse.BinLocation) error
	Get(ctx context.Context, id int64) (*warehouse.Warehouse, error)
	Save(ctx context.Context, w *warehouse.Warehouse) error
	// Delete removes the warehouse and its unknown bin location.
	Delete(ctx context.Context, id int64) error
	List(ctx context.Context, q ListQuery) (Page[*warehouse.Warehouse], error)
	// Defaults returns the holders of the default and the default return
	// shipment flag (nil when there are no warehouses).
	Defaults(ctx context.Context) (def, defReturn *warehouse.Warehouse, err error)
	// LockDefaults serialises the writers that move the default flags.
	LockDefaults(ctx context.Context) error
	CodeTaken(ctx context.Context, code string, exceptID int64) (bool, error)
	// HasBinLocations tells whether bins other than the unknown one exist.
	HasBinLocations(ctx context.Context, id int64) (bool, error)
}

// BinLocationRepository stores bin locations. Inside Write, Get locks the row.
type BinLocationRepository interface {
	Add(ctx context.Context, b *warehouse.BinLocation) error
	// AddMissing stores the codes that the warehouse does not have yet and
	// tells how many it stored.
	AddMissing(ctx context.Context, warehouseID int64, codes []string) (int, error)
	Get(ctx context.Context, id int64) (*warehouse.BinLocation, error)
	Save(ctx context.Context, b *warehouse.BinLocation) error
	Delete(ctx context.Context, id int64) error
	List(ctx context.Context, q ListQuery) (Page[*warehouse.BinLocation], error)
	CodeTaken(ctx context.Context, warehouseID int64, code string, exceptID int64) (bool, error)
	// Codes are the codes of the bin locations with these ids.
	Codes(ctx context.Context, ids []int64) (map[int64]string, error)
}
