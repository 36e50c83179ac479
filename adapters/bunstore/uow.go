package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
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
		err = db.attempt(ctx, fn)
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

// attempt runs fn in one transaction.
func (db *DB) attempt(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	if db.postgres {
		return db.attemptPostgres(ctx, fn)
	}
	return db.bun.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		s := &store{db: db, idb: tx, write: true}
		return fn(ctx, s)
	})
}

// attemptPostgres runs fn in one transaction that it opens and closes
// itself on one connection, rather than through database/sql's Tx, so that
// BEGIN waits in execSoon for the first statement and COMMIT goes in one
// round trip with the last ones (queryAfterPending): the statements that
// take the feed lock and the commit that releases it are one round trip,
// and no scheduling of this goroutine falls between them.
func (db *DB) attemptPostgres(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) (err error) {
	conn, err := db.bun.Conn(ctx)
	if err != nil {
		return err
	}
	s := &store{db: db, idb: conn, conn: conn.Conn, write: true, soon: []string{"BEGIN"}}
	committed := false
	defer func() {
		if !committed {
			s.rollback(ctx)
		}
		conn.Close()
	}()
	err = fn(context.WithValue(ctx, storeKey{}, s), s)
	if s.pendingErr != nil {
		// A statement that failed in a flush the query hook made: the
		// statement after it only met the aborted transaction.
		return s.pendingErr
	}
	if err != nil {
		return err
	}
	results, err := s.queryAfterPending(ctx, []string{"COMMIT"})
	if err != nil {
		return err
	}
	committed = true
	// A transaction that had failed answers COMMIT with ROLLBACK.
	if tag := results[0].CommandTag.String(); tag != "COMMIT" {
		return fmt.Errorf("commit: the transaction was rolled back (%s)", tag)
	}
	return nil
}

// rollback ends the transaction on the store's connection, if one is open,
// with a context of its own (the request's may be why it ends); a
// connection that cannot is closed rather than given back to the pool.
func (s *store) rollback(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = s.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return driver.ErrBadConn
		}
		pg := c.Conn().PgConn()
		if pg.IsClosed() {
			return driver.ErrBadConn
		}
		if pg.TxStatus() == 'I' {
			return nil
		}
		if _, err := pg.Exec(ctx, "ROLLBACK").ReadAll(); err != nil || pg.TxStatus() != 'I' {
			return driver.ErrBadConn
		}
		return nil
	})
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
	// conn is the connection of a PostgreSQL write transaction.
	conn *sql.Conn
	// soon are statements waiting for flush (PostgreSQL), with their
	// arguments in order.
	soon     []string
	soonArgs []any
	// pendingErr is the error of a flush that flushBeforeQuery made.
	pendingErr error
}

// storeKey carries the write transaction's store in the context its use
// case runs with, for flushBeforeQuery.
type storeKey struct{}

// flushBeforeQuery is the query hook that keeps execSoon safe on
// PostgreSQL: before any statement bun sends in a write transaction, the
// statements execSoon still holds go first, so nothing reads past a write
// that waits. Where a reader can take them along in its own round trip, it
// uses queryAfterPending instead.
type flushBeforeQuery struct{}

func (flushBeforeQuery) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	if s, ok := ctx.Value(storeKey{}).(*store); ok && len(s.soon) > 0 {
		if err := s.flush(ctx); err != nil && s.pendingErr == nil {
			s.pendingErr = err
		}
	}
	return ctx
}

func (flushBeforeQuery) AfterQuery(context.Context, *bun.QueryEvent) {}

// execSoon runs a statement whose answer nobody waits for. On PostgreSQL
// it waits, to go in one round trip with the transaction's next statement
// (the simple protocol takes several statements in one query, and stops at
// the first that fails, which fails the transaction): with a read through
// queryAfterPending, with the next statement bun sends (flushBeforeQuery),
// or at the latest before the commit. Elsewhere it runs at once.
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

// queryAfterPending sends what execSoon holds and then the queries, each
// one statement, in one round trip (PostgreSQL, in a write transaction) and
// returns the queries' results, rows of text values. In READ COMMITTED
// every statement of the round trip reads its own snapshot, taken when it
// starts: a query after one that waited for a lock sees what the holder of
// the lock committed.
func (s *store) queryAfterPending(ctx context.Context, queries []string, args ...any) ([]*pgconn.Result, error) {
	if s.conn == nil {
		return nil, errors.New("queryAfterPending needs a PostgreSQL write transaction")
	}
	text := s.db.bun.QueryGen().FormatQuery(strings.Join(append(s.soon, queries...), ";\n"), append(s.soonArgs, args...)...)
	s.soon, s.soonArgs = nil, nil
	var results []*pgconn.Result
	err := s.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("queryAfterPending: a %T is not pgx's", driverConn)
		}
		var err error
		results, err = c.Conn().PgConn().Exec(ctx, text).ReadAll()
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(results) < len(queries) {
		return nil, fmt.Errorf("queryAfterPending: %d results for %d queries", len(results), len(queries))
	}
	return results[len(results)-len(queries):], nil
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
	switch c := s.idb.(type) {
	case bun.Tx:
		return c.Tx
	case bun.Conn:
		return c.Conn
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
