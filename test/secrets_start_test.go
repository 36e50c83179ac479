package test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/shopstock/inventory/adapters/secretkey"
	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The secret at start: where it comes from, what a start without one does,
// and how it is rotated.

const startKey = "start-key-0123456789"

// startWithSecret starts the service from the environment on databaseURL
// with the given INVENTORY_SECRET_KEY and INVENTORY_PREVIOUS_SECRET_KEY
// ("" unsets them), and returns it with an Env that sends requests to it;
// a start that fails returns its error.
func startWithSecret(t *testing.T, databaseURL, secret, previous string) (*fx.App, *apitest.Env, error) {
	t.Helper()
	addr := freeAddr(t)
	t.Setenv("INVENTORY_DATABASE_URL", databaseURL)
	t.Setenv("INVENTORY_HTTP_ADDR", addr)
	t.Setenv("INVENTORY_API_KEY", startKey)
	t.Setenv("INVENTORY_LOG_LEVEL", "error")
	t.Setenv("INVENTORY_SECRET_KEY", secret)
	t.Setenv("INVENTORY_PREVIOUS_SECRET_KEY", previous)
	cfg, err := bootstrap.ConfigFromEnv()
	if err != nil {
		return nil, nil, err
	}
	app := fx.New(bootstrap.Options(cfg), fx.NopLogger)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		return nil, nil, err
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		app.Stop(ctx) //nolint:errcheck // a second Stop is a no-op
	})
	return app, &apitest.Env{URL: "http://" + addr}, nil
}

func mustStart(t *testing.T, databaseURL, secret, previous string) (*fx.App, *apitest.Env) {
	t.Helper()
	app, env, err := startWithSecret(t, databaseURL, secret, previous)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return app, env
}

func stop(t *testing.T, app *fx.App) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := app.Stop(ctx); err != nil {
		t.Fatal(err)
	}
}

// createUserAs adds a user over the API as the configured admin of a
// started service and returns its key.
func createUserAs(t *testing.T, env *apitest.Env, body map[string]any) string {
	t.Helper()
	res := usersAs(t, env, "admin", startKey, http.MethodPost, "/api/users", body)
	if res.Status != http.StatusCreated {
		t.Fatalf("create %v: %s", body, res)
	}
	key, _ := res.JSON(t)["data"].(map[string]any)["key"].(string)
	return key
}

func TestASecretIsRequiredOnPostgreSQLAndMustBeWellFormed(t *testing.T) {
	databaseURL := testdb.Postgres(t)
	_, _, err := startWithSecret(t, databaseURL, "", "")
	if err == nil || !strings.Contains(err.Error(), "INVENTORY_SECRET_KEY") {
		t.Fatalf("PostgreSQL without INVENTORY_SECRET_KEY: %v", err)
	}
	for _, bad := range []string{"short", "0123456789abcdef0123456789abcdef", "dG9vIHNob3J0", "not base64, not hex: a sentence of some length"} {
		for _, name := range []string{"INVENTORY_SECRET_KEY", "INVENTORY_PREVIOUS_SECRET_KEY"} {
			secret, previous := testdb.SecretKey, testdb.SecretKey
			if name == "INVENTORY_SECRET_KEY" {
				secret = bad
			} else {
				previous = bad
			}
			if _, _, err := startWithSecret(t, databaseURL, secret, previous); err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s=%q: %v", name, bad, err)
			}
		}
	}
	if _, _, err := startWithSecret(t, testdb.SQLite(t), "", testdb.SecretKey); err == nil || !strings.Contains(err.Error(), "INVENTORY_SECRET_KEY") {
		t.Errorf("a previous secret without a current one: %v", err)
	}
	// The service starts with a good one, in hex as in base64.
	app, env := mustStart(t, databaseURL, thirdSecret, "")
	if basicWithKey(t, env, "admin", startKey) != http.StatusOK {
		t.Fatal("the configured user works")
	}
	stop(t, app)
}

// Without INVENTORY_SECRET_KEY an SQLite database gets a key file beside
// it at its first start, readable by its owner only, and later starts use
// it: users made before keep working.
func TestSQLiteKeepsItsSecretInAKeyFileBesideIt(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "inventory.db")
	app, env := mustStart(t, "sqlite:"+db, "", "")
	path := db + bootstrap.KeyFileSuffix
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v; want mode 0600", info, err)
	}
	first, _ := os.ReadFile(path)
	if _, err := secretkey.Parse(string(first)); err != nil {
		t.Fatalf("the key file holds %q: %v", first, err)
	}
	key := createUserAs(t, env, map[string]any{"name": "shop", "role": "reader", "digest": true})
	stop(t, app)

	app, env = mustStart(t, "sqlite:"+db, "", "")
	if again, _ := os.ReadFile(path); string(again) != string(first) {
		t.Fatal("a later start made another secret")
	}
	if basicWithKey(t, env, "shop", key) != http.StatusOK || digestWithKey(t, env, "shop", key, user.DigestSHA256) != http.StatusOK {
		t.Fatal("a user made at the first start works at the second")
	}
	stop(t, app)

	// Its secret is the database's: a start with another one is refused,
	// rather than letting nobody in.
	if _, _, err := startWithSecret(t, "sqlite:"+db, otherSecret, ""); err == nil || !strings.Contains(err.Error(), "INVENTORY_SECRET_KEY") {
		t.Fatalf("a start with another secret than the stored values': %v", err)
	}
	// A key file others may read is refused.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := startWithSecret(t, "sqlite:"+db, "", ""); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a key file readable by others: %v", err)
	}

	// In memory, a secret per process, and no file.
	app, env = mustStart(t, "sqlite::memory:", "", "")
	if basicWithKey(t, env, "admin", startKey) != http.StatusOK {
		t.Fatal("in memory: the configured user works")
	}
	stop(t, app)
}

// Rotation: a start with the new secret and the old one as previous seals
// everything anew, in one go; users keep their keys, for Basic and Digest,
// and later starts need only the new secret. The old secret no longer
// opens anything.
func TestRotatingTheSecretKeepsUsersWorking(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		app, env := mustStart(t, databaseURL, testdb.SecretKey, "")
		digestKey := createUserAs(t, env, map[string]any{"name": "shop", "role": "operator", "digest": true})
		basicKey := createUserAs(t, env, map[string]any{"name": "till", "role": "reader"})
		stop(t, app)

		if _, _, err := startWithSecret(t, databaseURL, otherSecret, ""); err == nil ||
			!strings.Contains(err.Error(), "INVENTORY_SECRET_KEY") || !strings.Contains(err.Error(), "INVENTORY_PREVIOUS_SECRET_KEY") {
			t.Fatalf("a new secret without the previous one: %v", err)
		}

		app, env = mustStart(t, databaseURL, otherSecret, testdb.SecretKey)
		check := func(when string) {
			t.Helper()
			if basicWithKey(t, env, "shop", digestKey) != http.StatusOK || basicWithKey(t, env, "till", basicKey) != http.StatusOK {
				t.Fatalf("%s: Basic", when)
			}
			for _, alg := range user.DigestAlgorithms {
				if digestWithKey(t, env, "shop", digestKey, alg) != http.StatusOK {
					t.Fatalf("%s: Digest %s", when, alg)
				}
			}
			if digestWithKey(t, env, "till", basicKey, user.DigestSHA256) != http.StatusUnauthorized {
				t.Fatalf("%s: Digest stays off for a user without it", when)
			}
		}
		check("during the rotation")
		stop(t, app)

		app, env = mustStart(t, databaseURL, otherSecret, "")
		check("after the rotation")
		stop(t, app)

		if _, _, err := startWithSecret(t, databaseURL, testdb.SecretKey, ""); err == nil {
			t.Fatal("the old secret still opens the stored values")
		}
	})
}

// An SQLite database copied without its key file is not given a new one:
// the start is refused with a message naming the missing file, and no file
// is left that would hide the real one's absence.
func TestADatabaseCopiedWithoutItsKeyFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "inventory.db")
	app, _ := mustStart(t, "sqlite:"+db, "", "")
	stop(t, app)
	copyDir := t.TempDir()
	copied := filepath.Join(copyDir, "inventory.db")
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	path := copied + bootstrap.KeyFileSuffix
	_, _, err = startWithSecret(t, "sqlite:"+copied, "", "")
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("a copy without its key file: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a key file was made: %v", err)
	}
}
