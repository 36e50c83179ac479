package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// dialect is everything this package does differently on PostgreSQL and on
// SQLite. The repositories, and every statement both databases read alike,
// are written once; each database's side is its dialect, in its own files
// (postgres.go and postgres_batch.go; sqlite.go, sqlite_batch.go and the
// SQLite helpers), so that a reader follows a batch to one database's SQL
// without meeting the other's.
type dialect interface {
	// migrations is the folder of the database's migrations.
	migrations() string
	// migrationLock makes instances that start together migrate one after
	// the other, until unlock.
	migrationLock(ctx context.Context, db *bun.DB) (unlock func(), err error)
	// attempt runs fn in one write transaction.
	attempt(ctx context.Context, db *DB, fn func(ctx context.Context, s ports.Store) error) error
	// turn waits until this process may open a write transaction; release
	// gives the turn back.
	turn(ctx context.Context) (release func(), err error)
	close()

	// rowLock is what a select in a write transaction says to lock the
	// rows it reads with the strength given ("UPDATE", "NO KEY UPDATE"),
	// or "" where the transaction holds the whole database already.
	rowLock(strength string) string
	// takeIDs hands out the ids each want asks for (see idWant), in a
	// write transaction.
	takeIDs(ctx context.Context, s *store, wants []idWant) ([][]int64, error)
	// lockKey takes a lock, named by a number, until the transaction ends.
	lockKey(ctx context.Context, s *store, key int64) error
	// now is the database's clock, which every instance shares.
	now(ctx context.Context, s *store) (time.Time, error)
	// nowValue is the database's clock as a statement's argument.
	nowValue() any
	// inIDs is the condition "is one of ids" for a raw statement.
	inIDs(ids []int64) schema.QueryAppender
	// queryIDs runs query with every inIDsMarker the condition "is one of
	// ids"; the caller closes the rows and then calls done.
	queryIDs(ctx context.Context, s *store, query string, ids []int64) (rows *sql.Rows, done func(), err error)
	// queryKept runs a query whose text recurs from one transaction to the
	// next (SQLite keeps it prepared); the caller closes the rows and then
	// calls done.
	queryKept(ctx context.Context, s *store, query string, args ...any) (rows *sql.Rows, done func(), err error)
	// byteOrder is the collation that orders text by its bytes, whatever
	// the server's locale ("" where that is the default).
	byteOrder() string

	// The set-based statements of the batch path: each reads or writes the
	// rows of a whole batch in one statement, however many there are.

	// lockAndLoad locks the scope's products in id order and reads the
	// mappings the working set needs, and the lots of lot-tracked products
	// (found: what locations read of the products, if it did).
	lockAndLoad(ctx context.Context, s *store, scope stock.Scope, now time.Time, warehouses []stock.KnownWarehouse, bins []stock.Bin, found *foundArticles) (*stock.WorkingSet, error)
	// locations finds the warehouses and bins named, and may read which of
	// articles exist and which of those are lot-tracked (without their
	// lock; nil where it does not).
	locations(ctx context.Context, s *store, wants stock.LocationNames, articles []int64) ([]stock.KnownWarehouse, []stock.Bin, *foundArticles, error)
	loadMappings(ctx context.Context, s *store, wants stock.MappingNeeds) ([]loadedMappingRow, error)
	// updateMappings writes the columns named by changed (changedStock…).
	updateMappings(ctx context.Context, s *store, rows []mappingRow, changed int) error
	appendLedger(ctx context.Context, s *store, entries []stock.LedgerEntry) error
	// deleteLotStock deletes what the lots hold on the mappings (product
	// and bin) named.
	deleteLotStock(ctx context.Context, s *store, mappings []mappingKeyOf) error
	// deleteLots deletes the rows of lot_stock named.
	deleteLots(ctx context.Context, s *store, rows []lotStockKey) error
	// updateLots writes stock and reserved_stock of existing rows of
	// lot_stock.
	updateLots(ctx context.Context, s *store, rows []lotStockRow) error
	// lockedSnapshots locks the products' feed snapshots and reads what
	// their figures are made of.
	lockedSnapshots(ctx context.Context, s *store, ids, warehouseIDs []int64) ([]lockedSnapshotRow, stockOf, error)
	// record writes the snapshots and the events, and queues the events'
	// deliveries.
	record(ctx context.Context, s *store, snapshots []ports.StockSnapshot, evs []ports.NewEvent, at time.Time) error
	keepTotals(ctx context.Context, s *store, kept []stock.WarehouseTotal) error
	dropTotals(ctx context.Context, s *store, gone []stock.WarehouseTotal) error
	saveOrders(ctx context.Context, s *store, o orderStates) error
	// lockOrders reads the orders with these ids or numbers, locked in id
	// order, with their positions and reservations (Orders.GetMany).
	lockOrders(ctx context.Context, s *store, ids []int64, numbers []string) ([]orderRow, []orderDetailRow, []reservationRow, error)
	articleIDsByNumber(ctx context.Context, s *store, numbers []string) ([]articleNumberRow, error)
	// claimKey inserts an idempotency key unless it exists, and tells
	// whether it did.
	claimKey(ctx context.Context, s *store, row *idempotencyRow) (bool, error)
}

// orderStates are what Orders.Save writes: per order and per position,
// one slice per column.
type orderStates struct {
	orderIDs                      []int64
	orderStatus, orderEmail       []string
	detailIDs                     []int64
	shipped, outstanding, returns []int64
	detailStatus                  []string
}

type articleNumberRow struct {
	ID     int64  `bun:"id"`
	Number string `bun:"number"`
}

// foundArticles are the scope's products that exist and those of them that
// are lot-tracked, in id order.
type foundArticles struct{ existing, tracked []int64 }

// lockThenLoad locks the products and then reads their mappings, in two
// statements, and for a scope with lot-tracked products their lots and
// what the lots hold on the mappings read, in two more.
func lockThenLoad(ctx context.Context, s *store, scope stock.Scope, now time.Time, warehouses []stock.KnownWarehouse, bins []stock.Bin) (*stock.WorkingSet, error) {
	existing, tracked, err := lockTracked(ctx, s, scope.Articles())
	if err != nil {
		return nil, err
	}
	lots, err := loadLots(ctx, s, tracked)
	if err != nil {
		return nil, err
	}
	ws := stock.NewWorkingSet(scope, now, warehouses, bins, existing)
	locked, err := lockedBins(ctx, s, warehouses)
	if err != nil {
		return nil, err
	}
	ws.Lock(locked)
	needs := ws.MappingNeeds()
	return loadInto(ctx, s, ws, needs, lots)
}

// loadInto reads the mappings needs names into the working set, with what
// their lots hold (lots, nil for a scope without lot-tracked products).
func loadInto(ctx context.Context, s *store, ws *stock.WorkingSet, needs stock.MappingNeeds, lots *lotsLoaded) (*stock.WorkingSet, error) {
	var rows []loadedMappingRow
	if len(needs.InWarehouse) > 0 || len(needs.OnBin) > 0 {
		var err error
		if rows, err = s.db.dialect.loadMappings(ctx, s, needs); err != nil {
			return nil, err
		}
	}
	mappings, mappingBins, err := stockMappings{s}.loaded(rows)
	if err != nil {
		return nil, err
	}
	if err := lots.lotStockOf(ctx, s, rows); err != nil {
		return nil, err
	}
	if err := lots.into(s, ws, mappings); err != nil {
		return nil, err
	}
	ws.Loaded(needs, mappings, mappingBins)
	return ws, nil
}

// lockRows adds the lock of strength to a select in a write transaction.
func (s *store) lockRows(q *bun.SelectQuery, strength string) *bun.SelectQuery {
	if lock := s.rowLock(strength); lock != "" {
		return q.For(lock)
	}
	return q
}

// rowLock is the dialect's lock of strength in a write transaction, else "".
func (s *store) rowLock(strength string) string {
	if !s.write {
		return ""
	}
	return s.db.dialect.rowLock(strength)
}

// forUpdate locks selected rows inside a write transaction.
func (s *store) forUpdate(q *bun.SelectQuery) *bun.SelectQuery { return s.lockRows(q, "UPDATE") }

// exec runs a statement whose answer nobody reads: at once, or on
// PostgreSQL in a write transaction as a statement of the open pgx batch
// (oneTrip's), or of the batch held for the COMMIT (Last's).
func (s *store) exec(ctx context.Context, query string, args ...any) error {
	if s.recorded {
		return errAfterLast
	}
	if b := s.batch(); b != nil {
		b.Queue(s.db.bun.QueryGen().FormatQuery(query, args...))
		return nil
	}
	_, err := s.idb.ExecContext(ctx, query, args...)
	return err
}

// batch is the pgx batch a write joins: the port call's, else the one
// held for the COMMIT, else none.
func (s *store) batch() *pgx.Batch {
	if s.trip != nil {
		return s.trip
	}
	return s.held
}

// oneTrip runs fn, the writes of one port call, so that on PostgreSQL in a
// write transaction the statements it runs through exec travel as one pgx
// batch, sent in one round trip when fn returns (or, after Last, with the
// writes held for the COMMIT). fn reads nothing: what it wrote is not
// there before it returns. Elsewhere each statement runs at once.
func (s *store) oneTrip(ctx context.Context, fn func() error) error {
	if s.conn == nil || s.batch() != nil {
		return fn()
	}
	s.trip = &pgx.Batch{}
	err := fn()
	b := s.trip
	s.trip = nil
	if err != nil {
		return err
	}
	return s.sendBatch(ctx, b)
}

// Last runs fn, the use case's last writes: on PostgreSQL in a write
// transaction their statements are held, and go with the commit step's and
// the COMMIT as one round trip (postgresDialect.attempt), unless Flush
// sends them first. Elsewhere each statement runs at once.
func (s *store) Last(ctx context.Context, fn func() error) error {
	if s.conn == nil {
		return fn()
	}
	if s.recorded || s.batch() != nil {
		return errAfterLast
	}
	s.trip = &pgx.Batch{}
	err := fn()
	s.held, s.trip = s.trip, nil
	return err
}

// Flush sends the writes Last holds.
func (s *store) Flush(ctx context.Context) error {
	b := s.held
	s.held = nil
	if b == nil {
		return nil
	}
	return s.sendBatch(ctx, b)
}

// lastTrip is oneTrip for the transaction's last statements, those of
// Events().Record, which take the feed lock: on PostgreSQL they join the
// batch held for the COMMIT (postgresDialect.attempt), so that the lock is
// held for one round trip. Nothing the store sends may follow them.
func (s *store) lastTrip(ctx context.Context, fn func() error) error {
	if s.conn == nil {
		return fn()
	}
	if s.recorded || s.trip != nil {
		return errAfterLast
	}
	s.trip = s.held
	if s.trip == nil {
		s.trip = &pgx.Batch{}
	}
	err := fn()
	s.held, s.trip, s.recorded = s.trip, nil, true
	return err
}

// errAfterLast is a statement sent after the transaction's last ones.
var errAfterLast = errors.New("a statement after the events were recorded: recording them is the transaction's last step")

// errHeld is a read while writes are held for the COMMIT: it would not see
// them.
var errHeld = errors.New("a read while the use case's last writes are held for the commit: Flush sends them first")

func (s *store) inIDs(ids []int64) schema.QueryAppender { return s.db.dialect.inIDs(ids) }

func (s *store) queryIDs(ctx context.Context, query string, ids []int64) (*sql.Rows, func(), error) {
	return s.db.dialect.queryIDs(ctx, s, query, ids)
}

func (s *store) dbNow(ctx context.Context) (time.Time, error) { return s.db.dialect.now(ctx, s) }
