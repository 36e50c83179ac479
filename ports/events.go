package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/stock"
)

// NewEvent is an event recorded in the transaction that caused it; Data is
// its JSON payload.
type NewEvent struct {
	Type string
	Data []byte
}

// Event is an event in the change feed; ID is its feed position.
type Event struct {
	ID        int64
	Type      string
	CreatedAt time.Time
	Data      []byte
}

// StockSnapshot is the last stock figures recorded for an article detail:
// what the next transaction compares its figures with to decide whether
// they changed (Figures, the canonical spelling of event.Snapshot; empty
// when none were recorded yet), whether it is below its reorder point (what
// lists filter on), and what its order positions still have to ship (the
// sum of their demand, which its figures read).
type StockSnapshot struct {
	ArticleDetailID int64
	Figures         string
	Below           bool
	Outstanding     int
}

// LockedSnapshots is what EventRepository.LockSnapshots returns.
type LockedSnapshots struct {
	Snapshots map[int64]StockSnapshot
	Articles  []*catalog.ArticleDetail
	// Stock and Outstanding are FigureReader.StockOf's answer for Articles.
	Stock       map[int64][]stock.WarehouseStock
	Outstanding map[int64]int
	// Warehouses are the warehouses asked for, by id, with their code and
	// stockAvailableForSale (the rest of each WarehouseStock is zero).
	Warehouses map[int64]stock.WarehouseStock
	// Incoming is the kept incomingStock of Articles (those with none
	// left out).
	Incoming map[int64]int
	// InTransit is the kept inTransitStock of Articles (those with none
	// left out).
	InTransit map[int64]int
}

// EventRepository records events and keeps the change feed.
type EventRepository interface {
	// LockSnapshots locks the snapshots of these products (creating empty
	// ones for products that have none) in id order and returns them with,
	// read after the lock was granted, the products and what their
	// figures are made of (as
	// FigureReader.StockOf reads it), and the warehouses asked for; ids of
	// products that do not exist are left out. A writer locks before it
	// reads the figures it changes and compares, so that two transactions
	// touching one product do so in the order they commit.
	LockSnapshots(ctx context.Context, articleDetailIDs, warehouseIDs []int64) (LockedSnapshots, error)
	// DeleteSnapshots forgets deleted products: their snapshots and their
	// stock per warehouse.
	DeleteSnapshots(ctx context.Context, articleDetailIDs []int64) error
	// Record writes the changed snapshots, gives the events their feed
	// positions and stores them, with a delivery for every enabled webhook
	// that subscribes to their type. It must be the transaction's last
	// write: the positions are handed out in commit order (see the README,
	// "The feed guarantee").
	// The totals are the products' stock per warehouse that changed, to be
	// kept as they are, or removed where they hold no mapping any more.
	Record(ctx context.Context, snapshots []StockSnapshot, totals []stock.WarehouseTotal, events []NewEvent, at time.Time) error
	// Feed returns up to limit events after the position, in feed order,
	// of the given types (all when none are given).
	Feed(ctx context.Context, after int64, limit int, types []string) ([]Event, error)
	// PurgedThrough is the highest position purged (0 when none was).
	PurgedThrough(ctx context.Context) (int64, error)
	// Purge removes the events recorded before the given age on the
	// database's clock, from the oldest on and from at most limit of the
	// rows that hold them, and tells how many events it removed.
	Purge(ctx context.Context, olderThan time.Duration, limit int) (int, error)
}

// FigureReader reads what the stock figures of many products are made of,
// as the transactions that changed them kept it (EventRepository.Record),
// in a fixed number of queries however many products it is asked about.
type FigureReader interface {
	// StockOf is, in one query, each product's stock per warehouse (for
	// the warehouses where it has mappings, in warehouse id order) and what
	// positions that are not cancelled, of orders that are not cancelled,
	// still have to ship of it.
	StockOf(ctx context.Context, articleDetailIDs []int64) (map[int64][]stock.WarehouseStock, map[int64]int, error)
	// ArticlesInWarehouse lists the products with mappings in the warehouse.
	ArticlesInWarehouse(ctx context.Context, warehouseID int64) ([]int64, error)
}
