package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/schema"

	"github.com/shopstock/inventory/ports"
)

// postgresDialect is PostgreSQL, the production database: many instances
// share it, so writers lock the rows they change (products in id order,
// see the storage README), and a write transaction keeps to as few round
// trips as it can (execSoon, queryAfterPending).
type postgresDialect struct{}

func openPostgres(databaseURL string) (*DB, error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse database url: %w", err)
	}
	// The simple protocol keeps statements free of server-side
	// preparation, which bun's client-side formatting does not need.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	// bun formats values into the SQL text, escaping quotes but not
	// backslashes: that is safe only while backslashes are literal, so
	// pin it for every connection, whatever the server or database says.
	// PgBouncer passes this parameter through in every pooling mode.
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["standard_conforming_strings"] = "on"
	sqldb := stdlib.OpenDB(*cfg)
	sqldb.SetMaxOpenConns(32)
	sqldb.SetMaxIdleConns(32)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	db := bun.NewDB(sqldb, pgdialect.New())
	db.AddQueryHook(flushBeforeQuery{})
	return &DB{bun: db, dialect: postgresDialect{}}, nil
}

func (postgresDialect) migrations() string { return "migrations/postgres" }

// migrationLockID is the advisory lock that instances starting together
// take in turn, so that one migrates and the others find it done.
const migrationLockID = 7263001

// migrationLock is transaction-scoped and held by a transaction left open
// while the migrations run on other connections: behind PgBouncer in
// transaction pooling a session lock would stay with whichever server
// connection took it, and an unlock could go to another one. Ending the
// transaction (or the connection) ends it.
func (postgresDialect) migrationLock(ctx context.Context, db *bun.DB) (func(), error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", migrationLockID); err != nil {
		tx.Rollback() //nolint:errcheck
		return nil, err
	}
	return func() { tx.Rollback() }, nil //nolint:errcheck
}

// turn lets every writer in: the rows they lock order them.
func (postgresDialect) turn(context.Context) (func(), error) { return func() {}, nil }

func (postgresDialect) close() {}

func (postgresDialect) rowLock(strength string) string { return strength }

func (postgresDialect) lockKey(ctx context.Context, s *store, key int64) error {
	_, err := s.idb.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", key)
	return err
}

func (postgresDialect) now(ctx context.Context, s *store) (time.Time, error) {
	var now time.Time
	err := s.idb.NewSelect().ColumnExpr("clock_timestamp()").Scan(ctx, &now)
	return now.UTC(), err
}

// nowValue costs no round trip, where now would.
func (postgresDialect) nowValue() any { return bun.Safe("clock_timestamp()") }

// byteOrder: the "C" collation orders by bytes on every server.
func (postgresDialect) byteOrder() string { return ` COLLATE "C"` }

// inIDs is "= ANY(array)": the ids travel as one array, which is planned
// in constant time however many there are; a list of literals is not.
func (postgresDialect) inIDs(ids []int64) schema.QueryAppender { return anyOfIDs(ids) }

type anyOfIDs []int64

func (ids anyOfIDs) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	b = append(b, "= ANY("...)
	b, err := pgdialect.Array([]int64(ids)).AppendQuery(gen, b)
	return append(b, "::bigint[])"...), err
}

func (pg postgresDialect) queryIDs(ctx context.Context, s *store, query string, ids []int64) (*sql.Rows, func(), error) {
	args := make([]any, strings.Count(query, inIDsMarker))
	for i := range args {
		args[i] = pg.inIDs(ids)
	}
	rows, err := s.idb.QueryContext(ctx, strings.ReplaceAll(query, inIDsMarker, "?"), args...)
	return rows, func() {}, err
}

// execSoon, in a write transaction, holds the statement back to go in one
// round trip with the transaction's next statement (the simple protocol
// takes several statements in one query, and stops at the first that
// fails, which fails the transaction): with a read through
// queryAfterPending, with the next statement bun sends (flushBeforeQuery),
// or at the latest before the commit. Elsewhere it runs at once.
func (postgresDialect) execSoon(ctx context.Context, s *store, query string, args ...any) error {
	if s.conn == nil {
		_, err := s.idb.ExecContext(ctx, query, args...)
		return err
	}
	s.soon, s.soonArgs = append(s.soon, query), append(s.soonArgs, args...)
	return nil
}

// claimKey: an insert that collides with a racing, uncommitted insert of
// the same key waits for it to commit, so the loser then reads the
// winner's stored result instead of running again. It goes with what waits
// in execSoon (a transaction's BEGIN: the claim is a batch's first
// statement).
func (postgresDialect) claimKey(ctx context.Context, s *store, row *idempotencyRow) (bool, error) {
	const claim = `INSERT INTO idempotency_keys (key, endpoint, fingerprint, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`
	args := []any{row.Key, row.Endpoint, row.Fingerprint, row.CreatedAt}
	if s.conn == nil {
		res, err := s.idb.ExecContext(ctx, claim, args...)
		if err != nil {
			return false, err
		}
		n, err := res.RowsAffected()
		return n == 1, err
	}
	results, err := s.queryAfterPending(ctx, []string{claim}, args...)
	if err != nil {
		return false, err
	}
	return results[0].CommandTag.RowsAffected() == 1, nil
}

// attempt runs fn in one transaction that it opens and closes
// itself on one connection, rather than through database/sql's Tx, so that
// BEGIN waits in execSoon for the first statement and COMMIT goes in one
// round trip with the last ones (queryAfterPending): the statements that
// take the feed lock and the commit that releases it are one round trip,
// and no scheduling of this goroutine falls between them.
func (postgresDialect) attempt(ctx context.Context, db *DB, fn func(ctx context.Context, s ports.Store) error) (err error) {
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
