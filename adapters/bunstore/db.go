// Package bunstore implements the storage ports with bun, on PostgreSQL (the
// production database) and on the embedded SQLite default alike.
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

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DB is an open database of either dialect.
type DB struct {
	bun      *bun.DB
	postgres bool
	// writers queues this process's SQLite writers: SQLite admits one at a
	// time anyway, and its busy handler polls with growing sleeps, which
	// starves some writers for hundreds of milliseconds under load. It is a
	// semaphore of one so that a waiting writer can give up when its
	// context ends, which a mutex cannot.
	writers chan struct{}
	// statements are SQLite's prepared statements of the batch path.
	statements sqliteStatements
}

// Open connects to the database the URL names: postgres:// or postgresql://
// for PostgreSQL, sqlite:PATH (sqlite::memory: in memory) for SQLite.
func Open(databaseURL string) (*DB, error) {
	switch {
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
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
		return &DB{bun: db, postgres: true}, nil
	case strings.HasPrefix(databaseURL, "sqlite:"):
		path := strings.TrimPrefix(databaseURL, "sqlite:")
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
		// the busy timeout makes the second writer wait instead of failing.
		q := url.Values{}
		for _, p := range []string{"busy_timeout(30000)", "foreign_keys(1)"} {
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
			sqldb.SetMaxOpenConns(8)
		}
		sqldb.SetConnMaxIdleTime(0)
		return &DB{bun: bun.NewDB(sqldb, sqlitedialect.New()), writers: make(chan struct{}, 1)}, nil
	default:
		return nil, fmt.Errorf("unsupported database url %q: use postgres://… or sqlite:PATH", redact(databaseURL))
	}
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

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	return u.Redacted()
}

// Bun exposes the bun handle, for tests and benchmarks that prepare data.
func (db *DB) Bun() *bun.DB { return db.bun }

// Postgres tells which dialect is in use.
func (db *DB) Postgres() bool { return db.postgres }

// Close closes the connection pool.
func (db *DB) Close() error {
	db.statements.close()
	return db.bun.Close()
}

// Ping tells whether the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.bun.PingContext(ctx) }
