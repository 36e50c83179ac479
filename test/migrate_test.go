package test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"go.uber.org/fx"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Migrations are transactional and marked applied in the same transaction:
// a failed or killed one leaves nothing and runs again in full;
// instances starting together migrate once, under an advisory lock, before
// and not inside fx's start timeout.

const migrationsDir = "../adapters/bunstore/migrations"

func openDB(t *testing.T, databaseURL string) *bunstore.DB {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func tableExists(t *testing.T, db *bunstore.DB, name string) bool {
	t.Helper()
	q := "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
	if db.Postgres() {
		q = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename = ?"
	}
	var n int
	if err := db.Bun().NewRaw(q, name).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// appliedMigrations lists the names bun has marked applied, sorted.
func appliedMigrations(t *testing.T, db *bunstore.DB) []string {
	t.Helper()
	var names []string
	if err := db.Bun().NewRaw("SELECT name FROM bun_migrations ORDER BY name").Scan(context.Background(), &names); err != nil {
		t.Fatal(err)
	}
	return names
}

// schemaFiles lists the embedded migration files of one dialect.
func schemaFiles(t *testing.T, dialect string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(migrationsDir, dialect))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestEveryMigrationRunsInATransaction(t *testing.T) {
	for _, dialect := range []string{"postgres", "sqlite"} {
		files := schemaFiles(t, dialect)
		if len(files) == 0 {
			t.Fatalf("no %s migrations", dialect)
		}
		for _, f := range files {
			if !strings.HasSuffix(f, ".tx.up.sql") {
				t.Errorf("%s/%s: bun runs only *.tx.up.sql files in a transaction", dialect, f)
			}
		}
	}
}

// TestADatabaseMigratedBeforeTheRenameIsNotMigratedAgain: bun names a
// migration by its timestamp, so renaming x.up.sql to x.tx.up.sql must not
// run it a second time (it would fail on the tables it creates).
func TestADatabaseMigratedBeforeTheRenameIsNotMigratedAgain(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		db := openDB(t, databaseURL)
		dialect := "sqlite"
		if db.Postgres() {
			dialect = "postgres"
		}
		old := fstest.MapFS{}
		for _, f := range schemaFiles(t, dialect) {
			body, err := os.ReadFile(filepath.Join(migrationsDir, dialect, f))
			if err != nil {
				t.Fatal(err)
			}
			old[strings.Replace(f, ".tx.up.sql", ".up.sql", 1)] = &fstest.MapFile{Data: body}
		}
		if err := db.MigrateFrom(ctx, old); err != nil {
			t.Fatalf("migrate with the old names: %v", err)
		}
		before := appliedMigrations(t, db)
		if err := db.Migrate(ctx); err != nil {
			t.Fatalf("migrate with the new names: %v", err)
		}
		if after := appliedMigrations(t, db); strings.Join(after, ",") != strings.Join(before, ",") {
			t.Fatalf("applied before %v, after %v", before, after)
		}
	})
}

func TestAFailedMigrationLeavesNothingAndRunsAgainInFull(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		db := openDB(t, databaseURL)
		first := &fstest.MapFile{Data: []byte("CREATE TABLE first_t (id INTEGER)")}
		broken := fstest.MapFS{
			"20990101000001_first.tx.up.sql":  first,
			"20990101000002_second.tx.up.sql": {Data: []byte("CREATE TABLE second_t (id INTEGER);\n--bun:split\nCREATE TABLE broken (;\n")},
		}
		if err := db.MigrateFrom(ctx, broken); err == nil {
			t.Fatal("a broken migration succeeded")
		}
		if tableExists(t, db, "second_t") {
			t.Error("the broken migration's first statement was kept")
		}
		if got := appliedMigrations(t, db); strings.Join(got, ",") != "20990101000001" {
			t.Errorf("applied = %v, want only the first", got)
		}

		fixed := fstest.MapFS{
			"20990101000001_first.tx.up.sql":  first,
			"20990101000002_second.tx.up.sql": {Data: []byte("CREATE TABLE second_t (id INTEGER);\n--bun:split\nCREATE TABLE second_u (id INTEGER);\n")},
		}
		if err := db.MigrateFrom(ctx, fixed); err != nil {
			t.Fatalf("the next start: %v", err)
		}
		if !tableExists(t, db, "second_t") || !tableExists(t, db, "second_u") {
			t.Error("the next start did not run the migration in full")
		}
		if got := appliedMigrations(t, db); strings.Join(got, ",") != "20990101000001,20990101000002" {
			t.Errorf("applied = %v", got)
		}
	})
}

// TestAMigrationKilledHalfwayIsCompletedByTheNextStart terminates the
// connection of a migration in the middle of its statements, as a killed
// instance or a failover would.
func TestAMigrationKilledHalfwayIsCompletedByTheNextStart(t *testing.T) {
	databaseURL := testdb.Postgres(t)
	ctx := apitest.Admin()
	db := openDB(t, databaseURL)
	// The migration sleeps once per row of kill_me: the first start hangs
	// there until it is killed, the next one passes straight through.
	if _, err := db.Bun().ExecContext(ctx, "CREATE TABLE kill_me (x INTEGER); INSERT INTO kill_me VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	set := fstest.MapFS{
		"20990101000001_first.tx.up.sql": {Data: []byte("CREATE TABLE first_t (id INTEGER)")},
		"20990101000002_second.tx.up.sql": {Data: []byte("CREATE TABLE second_t (id INTEGER);\n--bun:split\n" +
			"SELECT pg_sleep(60) FROM kill_me;\n--bun:split\nCREATE TABLE second_u (id INTEGER);\n")},
	}
	done := make(chan error, 1)
	go func() { done <- db.MigrateFrom(ctx, set) }()

	admin, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for killed := false; !killed; {
		if time.Now().After(deadline) {
			t.Fatal("the migration never reached its sleep")
		}
		var n int
		err := admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep(60)%' AND pid <> pg_backend_pid()`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		killed = n > 0
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a killed migration reported success")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the killed migration did not return")
	}
	if tableExists(t, db, "second_t") {
		t.Error("the killed migration's first statement was kept")
	}
	if got := appliedMigrations(t, db); strings.Join(got, ",") != "20990101000001" {
		t.Errorf("after the kill applied = %v, want only the first", got)
	}

	if _, err := admin.Exec(ctx, "DELETE FROM kill_me"); err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateFrom(ctx, set); err != nil {
		t.Fatalf("the next start: %v", err)
	}
	if !tableExists(t, db, "second_t") || !tableExists(t, db, "second_u") {
		t.Error("the next start did not complete the migration")
	}
	if got := appliedMigrations(t, db); strings.Join(got, ",") != "20990101000001,20990101000002" {
		t.Errorf("applied = %v", got)
	}
}

// publicSchema describes the tables and columns of a PostgreSQL database.
func publicSchema(t *testing.T, db *bunstore.DB) string {
	t.Helper()
	var cols []string
	err := db.Bun().NewRaw(`SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns
		WHERE table_schema = 'public' ORDER BY table_name, column_name`).Scan(context.Background(), &cols)
	if err != nil {
		t.Fatal(err)
	}
	var idx []string
	err = db.Bun().NewRaw(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`).Scan(context.Background(), &idx)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(cols, "\n") + "\n" + strings.Join(idx, "\n")
}

// bootConfig configures the service as the command would, on databaseURL,
// a free port and apitest's credentials.
func bootConfig(t *testing.T, databaseURL string) bootstrap.Config {
	t.Helper()
	t.Setenv("INVENTORY_DATABASE_URL", databaseURL)
	t.Setenv("INVENTORY_HTTP_ADDR", freeAddr(t))
	t.Setenv("INVENTORY_API_USER", apitest.User)
	t.Setenv("INVENTORY_API_KEY", apitest.Key)
	t.Setenv("INVENTORY_LOG_LEVEL", "warn")
	cfg, err := bootstrap.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestThreeInstancesStartingTogetherOnAFreshDatabaseAllBecomeReady(t *testing.T) {
	reference := openDB(t, testdb.Postgres(t))
	if err := reference.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := publicSchema(t, reference)
	wantApplied := strings.Join(appliedMigrations(t, reference), ",")

	for round := range 4 {
		databaseURL := testdb.Postgres(t)
		configs := make([]bootstrap.Config, 3)
		for i := range configs {
			configs[i] = bootConfig(t, databaseURL)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, len(configs))
		for i, cfg := range configs {
			wg.Go(func() {
				<-start
				errs[i] = startAndProbe(cfg)
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d, instance %d: %v", round, i, err)
			}
		}
		db := openDB(t, databaseURL)
		if got := publicSchema(t, db); got != want {
			t.Errorf("round %d: schema differs from one migrated alone:\n%s\nwant\n%s", round, got, want)
		}
		if got := strings.Join(appliedMigrations(t, db), ","); got != wantApplied {
			t.Errorf("round %d: applied %s, want %s", round, got, wantApplied)
		}
	}
}

// startAndProbe starts the service, asks /readyz and stops it again.
func startAndProbe(cfg bootstrap.Config) error {
	app := fx.New(bootstrap.Options(cfg), fx.NopLogger)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		return err
	}
	defer app.Stop(ctx) //nolint:errcheck
	resp, err := http.Get("http://" + cfg.HTTPAddr + "/readyz")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New("/readyz: " + resp.Status)
	}
	return nil
}

// TestMigrationIsNotCutShortByTheStartTimeout holds the migration lock
// longer than the start is given: the instance waits for it while fx builds
// the service, and its start hooks still fit their timeout.
func TestMigrationIsNotCutShortByTheStartTimeout(t *testing.T) {
	databaseURL := testdb.Postgres(t)
	ctx := apitest.Admin()
	holder, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	if _, err := holder.Exec(ctx, "SELECT pg_advisory_lock(7263001)"); err != nil {
		t.Fatal(err)
	}
	const held = 3 * time.Second
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(held)
		holder.Exec(ctx, "SELECT pg_advisory_unlock(7263001)") //nolint:errcheck
	}()

	cfg := bootConfig(t, databaseURL)
	began := time.Now()
	app := fx.New(bootstrap.Options(cfg), fx.NopLogger)
	if err := app.Err(); err != nil {
		t.Fatalf("build: %v", err)
	}
	startCtx, cancel := context.WithTimeout(ctx, held/3)
	defer cancel()
	if err := app.Start(startCtx); err != nil {
		t.Fatalf("start with %v after a migration that waited %v: %v", held/3, time.Since(began).Round(time.Millisecond), err)
	}
	defer app.Stop(ctx) //nolint:errcheck
	<-released
	if time.Since(began) < held {
		t.Fatalf("the instance did not wait for the migration lock")
	}
	db := openDB(t, databaseURL)
	if !tableExists(t, db, "warehouses") {
		t.Fatal("no schema")
	}
}
