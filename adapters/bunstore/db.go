// Package bunstore implements the storage ports with bun, on PostgreSQL (the
// production database) and on the embedded SQLite default alike.
package bunstore

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/uptrace/bun"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DB is an open database of either dialect.
type DB struct {
	bun     *bun.DB
	dialect dialect
	// replicas take the reads that may go to one (UseReplicas); nil
	// without.
	replicas     *replicaSet
	primaryReads atomic.Uint64
}

// Open connects to the database the URL names: postgres:// or postgresql://
// for PostgreSQL, sqlite:PATH (sqlite::memory: in memory) for SQLite.
func Open(databaseURL string) (*DB, error) {
	switch {
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		return openPostgres(databaseURL)
	case strings.HasPrefix(databaseURL, "sqlite:"):
		return openSQLite(strings.TrimPrefix(databaseURL, "sqlite:"))
	default:
		return nil, fmt.Errorf("unsupported database url %q: use postgres://… or sqlite:PATH", redact(databaseURL))
	}
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
func (db *DB) Postgres() bool {
	_, ok := db.dialect.(postgresDialect)
	return ok
}

// Close closes the connection pool.
func (db *DB) Close() error {
	if db.replicas != nil {
		db.replicas.close()
	}
	db.dialect.close()
	return db.bun.Close()
}

// Ping tells whether the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.bun.PingContext(ctx) }
