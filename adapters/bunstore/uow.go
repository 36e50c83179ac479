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

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/schema"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

const maxAttempts = 12

// Write runs fn in one transaction and retries it on serialization failures
// and deadlocks, which concurrent writers on PostgreSQL can meet even with
// ordered locks (for example on unique index insertion races).
func (db *DB) Write(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	if !db.postgres {
		// A writer that waits for its turn gives up when its request ends.
		select {
		case db.writers <- struct{}{}:
			defer func() { <-db.writers }()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var err error
	for attempt := 1; ; attempt++ {
		err = db.bun.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			s := &store{db: db, idb: tx, write: true}
			if err := fn(ctx, s); err != nil {
				return err
			}
			return s.flush(ctx) // what execSoon still holds, before the commit
		})
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
func (db *DB) Read(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	return translate(fn(ctx, &store{db: db, idb: db.bun}))
}

type store struct {
	db    *DB
	idb   bun.IDB
	write bool
	// loadedMappings are the mappings as this transaction last read or
	// wrote them, so that an update writes only the columns that changed.
	loadedMappings map[int64]mappingRow
	// soon are statements waiting for flush (PostgreSQL), with their
	// arguments in order.
	soon     []string
	soonArgs []any
}

// execSoon runs a statement whose answer nobody waits for. On PostgreSQL
// it waits for the next flush, to go in one round trip with the others
// (the simple protocol takes several statements in one query, and stops at
// the first that fails, which fails the transaction); elsewhere it runs at
// once. Whoever calls it flushes before anything reads what it writes.
func (s *store) execSoon(ctx context.Context, query string, args ...any) error {
	if !s.db.postgres {
		_, err := s.idb.ExecContext(ctx, query, args...)
		return err
	}
	s.soon, s.soonArgs = append(s.soon, query), append(s.soonArgs, args...)
	return nil
}

// flush runs the statements execSoon holds, in one round trip.
func (s *store) flush(ctx context.Context) error {
	if len(s.soon) == 0 {
		return nil
	}
	query, args := strings.Join(s.soon, ";\n"), s.soonArgs
	s.soon, s.soonArgs = nil, nil
	_, err := s.idb.ExecContext(ctx, query, args...)
	return err
}

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
	if tx, ok := s.idb.(bun.Tx); ok {
		return tx.Tx
	}
	return s.db.bun.DB
}

// forUpdate locks selected rows on PostgreSQL inside a write transaction;
// SQLite's immediate transaction already holds the whole database.
func (s *store) forUpdate(q *bun.SelectQuery) *bun.SelectQuery {
	if s.write && s.db.postgres {
		return q.For("UPDATE")
	}
	return q
}

func retryable(err error) bool {
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

// inIDs is the condition "IN (…)" or "= ANY(…)" on ids, for raw SQL: on
// PostgreSQL the ids travel as one array, which is planned in constant time
// however many there are; a list of literals is not.
func (s *store) inIDs(ids []int64) schema.QueryAppender {
	return idsCondition{postgres: s.db.postgres, ids: ids}
}

type idsCondition struct {
	postgres bool
	ids      []int64
}

func (c idsCondition) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	if !c.postgres {
		b = append(b, "IN ("...)
		b, err := bun.List(c.ids).AppendQuery(gen, b)
		return append(b, ')'), err
	}
	b = append(b, "= ANY("...)
	b, err := pgdialect.Array(c.ids).AppendQuery(gen, b)
	return append(b, "::bigint[])"...), err
}
