package ports

import (
	"context"

	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/order"
)

// CountRepository stores counts (cycle counts): their bins with the
// snapshot, what was found, and the claim of one open count per bin.
// Inside Write, Get locks the count's row: countings and the apply of one
// count run one at a time, and a count applies once.
type CountRepository interface {
	// BinsOf are the bins of the warehouse with these ids or codes: id to
	// code, and code to id.
	BinsOf(ctx context.Context, warehouseID int64, ids []int64, codes []string) (map[int64]string, map[string]int64, error)
	// LockBins keeps every writer that names these bins of the warehouse
	// (all its bins when bins is nil) off them until the transaction
	// ends: a writer of stock share-locks the bins it names, so a
	// stock-in of a product new to a bin has either committed before the
	// count's snapshot or finds the count's bins locked.
	LockBins(ctx context.Context, warehouseID int64, bins []int64) error
	// ArticlesOn are the products holding a mapping on the bins (all bins
	// of the warehouse with stock when bins is nil; only these products
	// when articles is not nil), ascending: the ones to lock before a
	// snapshot.
	ArticlesOn(ctx context.Context, warehouseID int64, bins, articles []int64) ([]int64, error)
	// Snapshot reads, in one consistent read, what lies on the bins (all
	// bins of the warehouse with stock when bins is nil; only the
	// products named when articles is not nil) per mapping and lot, and
	// the ledger's last entry id.
	Snapshot(ctx context.Context, warehouseID int64, bins, articles []int64) ([]count.Holding, int64, error)
	// Add stores a new count and assigns its id. It claims its bins for
	// it: a bin another Open count holds is a conflict naming the bin and
	// that count, and nothing is stored.
	Add(ctx context.Context, c *count.Count) error
	Get(ctx context.Context, id int64) (*count.Count, error)
	// Save writes the count's status and the bins counted since it was
	// loaded; a count that is no longer Open gives its bins back.
	Save(ctx context.Context, c *count.Count) error
	List(ctx context.Context, q ListQuery) (Page[*count.Count], error)
	// MovedSince is the net ledger quantity per bin, product and lot on
	// the count's bins after their snapshot, other than the count's own
	// booking.
	MovedSince(ctx context.Context, c *count.Count) (map[CountKey]int, error)
	// Holders are the orders holding reservations on these bins, locked
	// in id order.
	Holders(ctx context.Context, bins []int64) ([]*order.Order, error)
	// OpenOn is the Open count that covers the bin, 0 when none does.
	OpenOn(ctx context.Context, binID int64) (int64, error)
}

// CountKey is one product (and lot, "" for none) on one bin of a count.
type CountKey struct {
	BinLocationID   int64
	ArticleDetailID int64
	Lot             string
}

// CountFields are the list fields of counts.
var CountFields = ListFields{
	"count.id": IntField, "count.status": TextField, "count.warehouseId": IntField,
	"count.blind": BoolField, "count.lockBins": BoolField, "count.createdAt": TimeField,
}

func init() {
	// A ledger entry names the count it books.
	StockLedgerEntryFields["stockLedgerEntry.countId"] = IntField
}
