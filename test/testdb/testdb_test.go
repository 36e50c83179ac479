package testdb_test

import (
	"context"
	"database/sql"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/shopstock/inventory/test/testdb"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

func TestMain(m *testing.M) { testdb.Main(m) }

func TestSQLite(t *testing.T) {
	u := testdb.SQLite(t)
	path, ok := strings.CutPrefix(u, "sqlite:/")
	if !ok || !strings.HasSuffix(path, "/inventory.db") {
		t.Fatalf("SQLite() = %q, want sqlite:/<dir>/inventory.db", u)
	}
	db, err := sql.Open("sqlite", strings.TrimPrefix(u, "sqlite:"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	createAndCount(t, db)
}

func TestPostgres(t *testing.T) {
	u1 := testdb.Postgres(t)
	u2 := testdb.Postgres(t)
	p1, err := url.Parse(u1)
	if err != nil || p1.Scheme != "postgres" {
		t.Fatalf("Postgres() = %q, want a postgres:// URL", u1)
	}
	if u1 == u2 {
		t.Fatalf("two calls gave the same database %q", u1)
	}
	ctx := context.Background()
	db, err := pgx.Connect(ctx, u1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	var tables int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Fatalf("fresh database has %d tables", tables)
	}
	if _, err := db.Exec(ctx, `CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO items (id, name) VALUES (1, 'a'), (2, 'b')`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM items`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("count = %d, %v; want 2", n, err)
	}

	// The second database must not see the first one's table.
	db2, err := pgx.Connect(ctx, u2)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close(ctx)
	if _, err := db2.Exec(ctx, `SELECT 1 FROM items`); err == nil {
		t.Fatal("second database sees the first one's table")
	}
}

func TestEach(t *testing.T) {
	var seen []string
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		seen = append(seen, t.Name()+" "+strings.SplitN(databaseURL, ":", 2)[0])
	})
	// Postgres may be skipped; the sqlite subtest always runs first.
	if len(seen) == 0 || seen[0] != "TestEach/sqlite sqlite" {
		t.Fatalf("Each ran %q", seen)
	}
	if len(seen) == 2 && seen[1] != "TestEach/postgres postgres" {
		t.Fatalf("Each ran %q", seen)
	}
}

func createAndCount(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO items (id, name) VALUES (1, 'a'), (2, 'b')`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM items`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("count = %d, want 2", n)
	}
}

// Through PgBouncer in transaction pooling, a connection works, and two
// transactions need not share a server connection.
func TestPgBouncerServesADatabase(t *testing.T) {
	u := testdb.PgBouncer(t)
	if !strings.Contains(u, "postgres://") {
		t.Fatalf("URL %q", u)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u+"&default_query_exec_mode=simple_protocol")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 through PgBouncer: %d %v", one, err)
	}
}
