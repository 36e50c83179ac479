package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

const maxAttempts = 12

// Write runs fn in one transaction and retries it on serialization failures
// and deadlocks, which concurrent writers on PostgreSQL can meet even with
// ordered locks (for example on unique index insertion races).
func (db *DB) Write(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	release, err := db.dialect.turn(ctx)
	if err != nil {
		return err
	}
	defer release()
	for attempt := 1; ; attempt++ {
		err = db.dialect.attempt(ctx, db, fn)
		if err == nil || attempt == maxAttempts || !retryable(err) || ctx.Err() != nil {
			break
		}
		backoff := time.Duration(attempt*attempt) * time.Millisecond
		select {
		case <-time.After(backoff + rand.N(backoff+time.Millisecond)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return translate(err)
}

// Read runs fn outside a transaction: reads never take the write lock.
// A read ctx marks with ports.ReadFromReplica runs on a replica when one
// is usable (UseReplicas), and again on the primary when it fails there.
func (db *DB) Read(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	if r := db.replicas.pick(ctx); r != nil {
		err := fn(ctx, &store{db: db, idb: r.bun})
		if !r.failed(ctx, err) {
			r.reads.Add(1)
			return translate(err)
		}
	}
	db.primaryReads.Add(1)
	return translate(fn(ctx, &store{db: db, idb: db.bun}))
}

type store struct {
	db    *DB
	idb   bun.IDB
	write bool
	// loadedMappings are the mappings as this transaction last read or
	// wrote them, so that an update writes only the columns that changed.
	loadedMappings map[int64]mappingRow
	// loadedLots are what the lots held on the mappings of lot-tracked
	// products as this transaction last read or wrote them (saveLots
	// writes what changed).
	loadedLots map[mappingKeyOf][]stock.LotStock
	// conn is the connection of a PostgreSQL write transaction.
	conn *sql.Conn
	// trip is the pgx batch of the port call running in oneTrip (or Last,
	// or lastTrip).
	trip *pgx.Batch
	// held is the pgx batch of the transaction's last statements (Last's,
	// the commit step's, lastTrip's), which attempt sends with the COMMIT;
	// recorded tells that the events are among them, and nothing follows.
	held     *pgx.Batch
	recorded bool
	// saved is what the transaction's repositories wrote (ports.Saved).
	saved ports.Saved
}

func (s *store) Saved() *ports.Saved { return &s.saved }

// Together sends the writes of the port calls in fn as one round trip
// (oneTrip), on PostgreSQL in a write transaction.
func (s *store) Together(ctx context.Context, fn func() error) error { return s.oneTrip(ctx, fn) }

func (s *store) Warehouses() ports.WarehouseRepository     { return warehouses{s} }
func (s *store) BinLocations() ports.BinLocationRepository { return binLocations{s} }
func (s *store) APIUsers() ports.APIUserRepository         { return apiUsers{s} }

// sqlConn is the store's transaction, or its pool outside one, as plain
// database/sql: its arguments are bound by the driver, not formatted into
// the statement's text by bun.
func (s *store) sqlConn() interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
} {
	switch c := s.idb.(type) {
	case bun.Tx:
		return c.Tx
	case bun.Conn:
		return c.Conn
	}
	return s.pool().DB
}

// pool is the pool a read outside a transaction runs on: the primary's, or
// a replica's (DB.Read).
func (s *store) pool() *bun.DB {
	if p, ok := s.idb.(*bun.DB); ok {
		return p
	}
	return s.db.bun
}

// errArticlesChanged: a product of a batch was created, deleted or made
// lot-tracked between the batch's read of its products and their lock
// (lockAndLoad), so the working set built from that read is not the one to
// run; the attempt starts over.
var errArticlesChanged = errors.New("an article detail of the batch changed while it was being locked")

func retryable(err error) bool {
	if errors.Is(err, errArticlesChanged) || errors.Is(err, errIDRaced) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "40001" || pgErr.Code == "40P01"
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		code := sqErr.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return false
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		return sqErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || sqErr.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// violatesNumber tells whether a unique violation is on a `number` column
// (an order's or article detail's), rather than on the id, from the
// constraint PostgreSQL names or the column SQLite names.
func violatesNumber(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return strings.Contains(pgErr.ConstraintName, "number")
	}
	return strings.Contains(err.Error(), ".number")
}

// violatedID is the id a PostgreSQL unique violation reports ("Key
// (id)=(42) already exists."), 0 when it names none.
func violatedID(err error) int64 {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return 0
	}
	_, after, ok := strings.Cut(pgErr.Detail, "=(")
	digits, _, _ := strings.Cut(after, ")")
	id, _ := strconv.ParseInt(digits, 10, 64)
	if !ok {
		return 0
	}
	return id
}

func isForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23503"
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		return sqErr.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
	}
	return false
}

// translate turns driver failures into the service's error kinds; errors
// that already are *errs.Error pass through.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errs.As(err); ok {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if isUnavailable(err) {
		return errs.Wrap(errs.Unavailable, err, "the database is unavailable")
	}
	return err
}

func isUnavailable(err error) bool {
	var netErr net.Error
	var connectErr *pgconn.ConnectError
	switch {
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone):
		return true
	case strings.Contains(err.Error(), "sql: database is closed"):
		// database/sql does not export this one; it is seen while shutting down.
		return true
	case errors.As(err, &connectErr), errors.As(err, &netErr):
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08: connection exception; 57P0x: the server is shutting down.
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P0")
	}
	return false
}

func notFound(err error, format string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		return errs.NotFoundf(format, args...)
	}
	return err
}

// longText is a text argument that bun spells as a literal a slice at a
// time instead of rune by rune: the same literal, for a 40 KB text (a
// batch's events) in a tenth of the time. What is not plain UTF-8 without
// NUL goes the way bun spells it.
type longText string

func (t longText) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	s := string(t)
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return gen.Dialect().AppendString(b, s), nil
	}
	b = append(b, '\'')
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, '\'')
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, '\''), nil
}
