package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/schema"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/shopstock/inventory/ports"
)

// sqliteDialect is the embedded SQLite: one process, one writer at a time.
// Its immediate transactions hold the whole database, so nothing is locked
// row by row; its cost is the engine's and the driver's work per row and
// per statement, so the batch path binds its rows as parameters of
// statements it prepares once (sqlite_columns.go).
type sqliteDialect struct {
	// writers queues this process's writers: SQLite admits one at a time
	// anyway, and its busy handler polls with growing sleeps, which starves
	// some writers for hundreds of milliseconds under load. It is a
	// semaphore of one so that a waiting writer can give up when its
	// context ends, which a mutex cannot.
	writers chan struct{}
	// statements are the prepared statements of the batch path.
	statements sqliteStatements
}

// sqliteWALPages is how many pages the WAL holds before the commit that
// reaches it copies them back into the database file (SQLite's default is
// 1000): a page written by many commits in between is copied once, and the
// writer, which every write waits for, checkpoints a tenth as often. The
// WAL file grows to about 40 MB and keeps that size.
const sqliteWALPages = 10000

func openSQLite(path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("sqlite: needs a path, or :memory: for an in-memory database")
	}
	memory := path == ":memory:"
	if !memory {
		if err := createPrivate(path); err != nil {
			return nil, err
		}
	}
	// WAL lets readers run beside the writer; immediate transactions take
	// the write lock up front so two writers never deadlock on upgrade;
	// the busy timeout makes the second writer wait instead of failing. A
	// write transaction's pages stay in memory until it commits: the
	// statement journal in memory (temp_store), no spill of the cache
	// into the WAL before the commit (cache_spill). The WAL grows to
	// sqliteWALPages before a commit copies it back.
	q := url.Values{}
	for _, p := range []string{"busy_timeout(30000)", "foreign_keys(1)", "temp_store(MEMORY)", "cache_spill(0)",
		fmt.Sprintf("wal_autocheckpoint(%d)", sqliteWALPages)} {
		q.Add("_pragma", p)
	}
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Set("_txlock", "immediate")
	sqldb, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	if memory {
		// Every connection to :memory: is a database of its own.
		sqldb.SetMaxOpenConns(1)
	} else {
		// All of them stay open when idle: a connection closed and opened
		// again parses the schema anew, starts with an empty page cache
		// and prepares the kept statements again (database/sql keeps two
		// idle connections unless told otherwise; in the mixed workload the
		// others were closed and reopened all the time).
		sqldb.SetMaxOpenConns(8)
		sqldb.SetMaxIdleConns(8)
	}
	sqldb.SetConnMaxIdleTime(0)
	return &DB{bun: bun.NewDB(sqldb, sqlitedialect.New()), dialect: &sqliteDialect{writers: make(chan struct{}, 1)}}, nil
}

// createPrivate creates a new SQLite file readable by its owner only (it
// holds customer addresses); SQLite gives its -wal and -shm files the same
// mode. An existing file keeps its mode.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, os.ErrExist):
		return nil
	case err != nil:
		return fmt.Errorf("sqlite: create %s: %w", path, err)
	}
	return f.Close()
}

func (*sqliteDialect) migrations() string { return "migrations/sqlite" }

// migrationLock: the file is one process's.
func (*sqliteDialect) migrationLock(context.Context, *bun.DB) (func(), error) { return func() {}, nil }

func (*sqliteDialect) attempt(ctx context.Context, db *DB, fn func(ctx context.Context, s ports.Store) error) error {
	return db.bun.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return fn(ctx, &store{db: db, idb: tx, write: true})
	})
}

// turn: a writer that waits for its turn gives up when its request ends.
func (d *sqliteDialect) turn(ctx context.Context) (func(), error) {
	select {
	case d.writers <- struct{}{}:
		return func() { <-d.writers }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (d *sqliteDialect) close() { d.statements.close() }

// rowLock: the immediate transaction already holds the whole database.
func (*sqliteDialect) rowLock(string) string { return "" }

func (*sqliteDialect) lockKey(context.Context, *store, int64) error { return nil }

// now: SQLite is embedded, its clock is this process's, and there is no
// other instance.
func (*sqliteDialect) now(context.Context, *store) (time.Time, error) { return time.Now().UTC(), nil }

func (*sqliteDialect) nowValue() any { return time.Now().UTC() }

// byteOrder: SQLite's default collation, BINARY, orders by bytes.
func (*sqliteDialect) byteOrder() string { return "" }

func (*sqliteDialect) inIDs(ids []int64) schema.QueryAppender { return inList(ids) }

type inList []int64

func (ids inList) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	b = append(b, "IN ("...)
	b, err := bun.List([]int64(ids)).AppendQuery(gen, b)
	return append(b, ')'), err
}

func (*sqliteDialect) claimKey(ctx context.Context, s *store, row *idempotencyRow) (bool, error) {
	res, err := s.idb.NewInsert().Model(row).ExcludeColumn("response").On("CONFLICT (key) DO NOTHING").Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// queryIDs binds the ids as a list of parameters through the statement
// cache (its text is the same for every list of the same length, which
// sqliteListLength rounds to a power of two), or as literals when the list
// is too long to bind.
func (d *sqliteDialect) queryIDs(ctx context.Context, s *store, query string, ids []int64) (rows *sql.Rows, done func(), err error) {
	n := strings.Count(query, inIDsMarker)
	if len(ids) > 0 {
		if size := sqliteListLength(len(ids)); size > len(ids) && n*size <= sqliteMaxParameters/2 {
			padded := make([]int64, size)
			copy(padded, ids)
			for i := len(ids); i < size; i++ {
				padded[i] = ids[len(ids)-1]
			}
			ids = padded
		}
	}
	if n*len(ids) > sqliteMaxParameters/2 {
		args := make([]any, n)
		for i := range args {
			args[i] = d.inIDs(ids)
		}
		rows, err := s.idb.QueryContext(ctx, strings.ReplaceAll(query, inIDsMarker, "?"), args...)
		return rows, func() {}, err
	}
	args := make([]any, 0, n*len(ids))
	for range n {
		for _, id := range ids {
			args = append(args, id)
		}
	}
	list := "IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
	return d.queryPrepared(ctx, s, strings.ReplaceAll(query, inIDsMarker, list), args...)
}
