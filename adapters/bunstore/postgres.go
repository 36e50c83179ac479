package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
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
// see the storage README), and a port call that sends several statements
// sends them as one pgx batch, in one round trip (sendBatch).
type postgresDialect struct{}

func openPostgres(databaseURL string) (*DB, error) {
	db, err := openPostgresPool(databaseURL, nil)
	if err != nil {
		return nil, err
	}
	return &DB{bun: db, dialect: postgresDialect{}}, nil
}

// openPostgresPool opens a pool of connections to the server the URL names,
// as the store uses them; tune may change the connections' settings first.
func openPostgresPool(databaseURL string, tune func(*pgx.ConnConfig)) (*bun.DB, error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse database url: %w", err)
	}
	if tune != nil {
		tune(cfg)
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
	return bun.NewDB(sqldb, pgdialect.New()), nil
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

// claimKey: an insert that collides with a racing, uncommitted insert of
// the same key waits for it to commit, so the loser then reads the
// winner's stored result instead of running again.
func (postgresDialect) claimKey(ctx context.Context, s *store, row *idempotencyRow) (bool, error) {
	res, err := s.idb.ExecContext(ctx, `INSERT INTO idempotency_keys (key, endpoint, fingerprint, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
		row.Key, row.Endpoint, row.Fingerprint, row.CreatedAt)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// attempt runs fn in one transaction that it opens and closes itself on
// one connection, rather than through database/sql's Tx, so that the
// store's pgx batches (sendBatch) and bun's statements share it, and so
// that COMMIT's answer is read: a transaction that failed unnoticed answers
// it with ROLLBACK.
func (postgresDialect) attempt(ctx context.Context, db *DB, fn func(ctx context.Context, s ports.Store) error) (err error) {
	conn, err := db.bun.Conn(ctx)
	if err != nil {
		return err
	}
	s := &store{db: db, idb: conn, conn: conn.Conn, write: true}
	committed := false
	defer func() {
		if !committed {
			s.rollback(ctx)
		}
		conn.Close()
	}()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	if err := fn(ctx, s); err != nil {
		return err
	}
	// COMMIT travels in the pgx batch of the transaction's last statements
	// (Last, the commit step's writes, lastTrip), so that the locks they
	// hold and the feed lock they take are held for one round trip.
	commit := s.held
	if commit == nil {
		commit = &pgx.Batch{}
	}
	s.held, s.recorded = nil, false
	var tag string
	commit.Queue("COMMIT").Exec(func(ct pgconn.CommandTag) error {
		tag = ct.String()
		return nil
	})
	note := ports.CommittedNote(ctx)
	var position string
	if note != nil {
		// The commit's position costs no round trip of its own. The insert
		// position, not pg_current_wal_lsn(): that one is where WAL has
		// been written to, which with synchronous_commit = off may still be
		// before this commit's record.
		commit.Queue("SELECT pg_current_wal_insert_lsn()::text").QueryRow(func(row pgx.Row) error {
			return row.Scan(&position)
		})
	}
	if err := s.sendBatch(ctx, commit); err != nil {
		return err
	}
	committed = true
	if tag != "COMMIT" {
		return fmt.Errorf("commit: the transaction was rolled back (%s)", tag)
	}
	if p, err := ports.ParsePosition(position); note != nil && err == nil {
		note(p)
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

// sendBatch sends b's statements in one round trip on the transaction's
// connection (or on one of the pool's outside a write transaction) and
// runs each statement's callback on its result. In the simple protocol pgx
// sends them as one query of several statements, which PostgreSQL runs in
// order and stops at the first that fails; each still starts with a
// snapshot of its own (READ COMMITTED), so a read after a lock sees what
// the lock's previous holder committed.
func (s *store) sendBatch(ctx context.Context, b *pgx.Batch) error {
	switch {
	case s.recorded:
		return errAfterLast
	case s.held != nil:
		return errHeld
	}
	if b.Len() == 0 {
		return nil
	}
	conn := s.conn
	if conn == nil {
		c, err := s.pool().DB.Conn(ctx)
		if err != nil {
			return err
		}
		defer c.Close()
		conn = c
	}
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("sendBatch: a %T is not pgx's", driverConn)
		}
		return c.Conn().SendBatch(ctx, b).Close()
	})
}
