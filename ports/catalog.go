package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/stock"
)

// ArticleDetailRepository stores the shop's products. Inside Write, Get
// locks the row as Lock does.
type ArticleDetailRepository interface {
	// Add stores a; an id of 0 is assigned.
	Add(ctx context.Context, a *catalog.ArticleDetail) error
	Get(ctx context.Context, id int64) (*catalog.ArticleDetail, error)
	Save(ctx context.Context, a *catalog.ArticleDetail) error
	Delete(ctx context.Context, id int64) error
	List(ctx context.Context, q ListQuery) (Page[*catalog.ArticleDetail], error)
	IDTaken(ctx context.Context, id int64) (bool, error)
	NumberTaken(ctx context.Context, number string, exceptID int64) (bool, error)
	// EANTaken tells whether a product other than exceptID has gtin as
	// its ean, in any of its spellings.
	EANTaken(ctx context.Context, gtin barcode.GTIN, exceptID int64) (bool, error)
	// IDsByNumber finds the products with these numbers in one query; a
	// number that names none is missing from the map.
	IDsByNumber(ctx context.Context, numbers []string) (map[string]int64, error)
	// Lock locks the products with these ids in id order, which every
	// stock writer does first so that concurrent writers never deadlock
	// and never create the same mapping twice; it returns those that exist.
	Lock(ctx context.Context, ids []int64) (map[int64]bool, error)
	// KeepExisting returns those of the products with these ids that
	// exist, and keeps them from being deleted until the transaction
	// ends, without waiting for their stock writers or making them wait:
	// what a new document (an order, a purchase order, a transfer) needs
	// of its products. Its figures are written under their snapshots'
	// lock, as every writer of figures does (Events.LockSnapshots).
	KeepExisting(ctx context.Context, ids []int64) (map[int64]bool, error)
}

// LedgerRecord is a stored ledger entry.
type LedgerRecord struct {
	ID int64
	stock.LedgerEntry
}

// LedgerRepository reads the stock ledger (StockRepository.Save writes it).
type LedgerRepository interface {
	List(ctx context.Context, q ListQuery) (Page[LedgerRecord], error)
	// ShippedLots are, per order detail, the lots its shipments took
	// pieces of, in byte order (details that shipped no lot are left out).
	ShippedLots(ctx context.Context, orderDetailIDs []int64) (map[int64][]string, error)
}

// StoredBatch is the remembered outcome of a batch under its idempotency key.
type StoredBatch struct {
	Endpoint    string
	Fingerprint string
	Response    []byte
}

// IdempotencyStore remembers batch results by key.
type IdempotencyStore interface {
	// Claim reserves key for this batch inside the current transaction.
	// When the key was used before it returns that batch (waiting for a
	// racing batch with the same key to finish first) and claims nothing.
	Claim(ctx context.Context, key, endpoint, fingerprint string, at time.Time) (*StoredBatch, error)
	// Complete stores the response of the claimed batch.
	Complete(ctx context.Context, key string, response []byte) error
	// Purge forgets at most limit batches stored before the given time,
	// the oldest first, and tells how many it forgot.
	Purge(ctx context.Context, before time.Time, limit int) (int, error)
}
