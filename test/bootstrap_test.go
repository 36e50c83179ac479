package test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"

	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServiceStartsServesAndStops wires the whole service with fx, as the
// command does, on both databases: migrations, the API user, the HTTP
// server, the background loops, and a clean stop.
func TestServiceStartsServesAndStops(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		t.Setenv("INVENTORY_DATABASE_URL", databaseURL)
		t.Setenv("INVENTORY_HTTP_ADDR", freeAddr(t))
		t.Setenv("INVENTORY_API_KEY", "boot-secret-0123456789")
		t.Setenv("INVENTORY_LOG_LEVEL", "warn")
		cfg, err := bootstrap.ConfigFromEnv()
		if err != nil {
			t.Fatal(err)
		}
		app := fx.New(bootstrap.Options(cfg), fx.NopLogger)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := app.Start(ctx); err != nil {
			t.Fatalf("start: %v", err)
		}
		base := "http://" + cfg.HTTPAddr
		get := func(path string, auth bool) int {
			req, _ := http.NewRequest(http.MethodGet, base+path, nil)
			if auth {
				req.SetBasicAuth("admin", "boot-secret-0123456789")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		if got := get("/healthz", false); got != http.StatusOK {
			t.Errorf("/healthz: %d", got)
		}
		if got := get("/readyz", false); got != http.StatusOK {
			t.Errorf("/readyz: %d", got)
		}
		if got := get("/api/warehouses", true); got != http.StatusOK {
			t.Errorf("/api/warehouses with the configured key: %d", got)
		}
		if got := get("/api/warehouses", false); got != http.StatusUnauthorized {
			t.Errorf("/api/warehouses without auth: %d", got)
		}
		if res, err := http.Get(base + "/metrics"); err != nil {
			t.Errorf("/metrics: %v", err)
		} else {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			for _, gauge := range []string{"inventory_mail_outbox_pending 0", "inventory_mail_outbox_oldest_pending_age_seconds 0",
				"inventory_webhook_deliveries_pending 0", "inventory_webhook_deliveries_oldest_pending_age_seconds 0"} {
				if !strings.Contains(string(body), gauge) {
					t.Errorf("/metrics lacks %q", gauge)
				}
			}
		}
		if err := app.Stop(ctx); err != nil {
			t.Fatalf("stop: %v", err)
		}
		if _, err := http.Get(base + "/healthz"); err == nil {
			t.Error("the server still answers after stop")
		}
	})
}

func TestConfigurationIsReadFromTheEnvironment(t *testing.T) {
	t.Setenv("INVENTORY_HTTP_ADDR", "")
	t.Setenv("INVENTORY_DATABASE_URL", "")
	cfg, err := bootstrap.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != "127.0.0.1:8080" || cfg.DatabaseURL != "sqlite:inventory.db" || cfg.APIUser != "admin" ||
		cfg.MailFrom != "inventory@localhost" || cfg.IdempotencyRetention != 720*time.Hour || cfg.LogFormat != "json" ||
		cfg.MailRetention != 720*time.Hour || cfg.EventRetention != 720*time.Hour || cfg.WebhookAllowPrivate {
		t.Fatalf("defaults: %+v", cfg)
	}
	t.Setenv("INVENTORY_IDEMPOTENCY_RETENTION", "soon")
	if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "INVENTORY_IDEMPOTENCY_RETENTION") {
		t.Fatalf("a bad retention is refused: %v", err)
	}
	t.Setenv("INVENTORY_IDEMPOTENCY_RETENTION", "1h")
	for _, name := range []string{"INVENTORY_MAIL_RETENTION", "INVENTORY_EVENT_RETENTION", "INVENTORY_WEBHOOK_ALLOW_PRIVATE"} {
		t.Setenv(name, "-1h")
		if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("a bad %s is refused: %v", name, err)
		}
		t.Setenv(name, "")
	}
	t.Setenv("INVENTORY_WEBHOOK_ALLOW_PRIVATE", "true")
	if cfg, err := bootstrap.ConfigFromEnv(); err != nil || !cfg.WebhookAllowPrivate {
		t.Errorf("INVENTORY_WEBHOOK_ALLOW_PRIVATE=true: %v", err)
	}
	t.Setenv("INVENTORY_LOG_FORMAT", "xml")
	if _, err := bootstrap.ConfigFromEnv(); err == nil {
		t.Fatal("a bad log format is refused")
	}
	t.Setenv("INVENTORY_LOG_FORMAT", "json")
	t.Setenv("INVENTORY_API_KEY", "fifteen-chars-x")
	if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "INVENTORY_API_KEY: want at least 16 characters") {
		t.Fatalf("a key shorter than 16 characters stops the start: %v", err)
	}
	t.Setenv("INVENTORY_API_KEY", "sixteen-chars-xx")
	if _, err := bootstrap.ConfigFromEnv(); err != nil {
		t.Fatalf("16 characters are enough: %v", err)
	}
}

func TestAGeneratedKeyIsCreatedOnlyWhenNoUserExists(t *testing.T) {
	ctx := apitest.Admin()
	db, err := bunstore.Open(testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	app := application.New(db, bootClock{}, apitest.Secrets(t))
	ensured, err := app.EnsureAPIUser(ctx, "admin", "")
	key := ensured.GeneratedKey
	if err != nil || len(key) < 32 {
		t.Fatalf("first start generates a long key: %q %v", key, err)
	}
	if p, _ := app.Authenticate(ctx, "admin", key); p == nil {
		t.Fatal("the generated key works")
	}
	var stored string
	if err := db.Bun().NewSelect().Table("api_users").Column("key_hash").Where("name = 'admin'").Scan(ctx, &stored); err != nil || strings.Contains(stored, key) {
		t.Fatalf("only a hash of the key is stored: %v", err)
	}
	again, err := app.EnsureAPIUser(ctx, "admin", "")
	if err != nil || again.GeneratedKey != "" || len(again.Differs) != 0 {
		t.Fatalf("a later start keeps the user and shows no key: %+v %v", again, err)
	}
	configured, err := app.EnsureAPIUser(ctx, "admin", "configured-later-0123")
	if err != nil || strings.Join(configured.Differs, ",") != "key" {
		t.Fatalf("a key configured for an existing user is told apart: %+v %v", configured, err)
	}
	if p, _ := app.Authenticate(ctx, "admin", key); p == nil {
		t.Fatal("a configured key does not replace the stored one")
	}
	if p, _ := app.Authenticate(ctx, "admin", "configured-later-0123"); p != nil {
		t.Fatal("the configured key of an existing user is not applied")
	}
}

type bootClock struct{}

func (bootClock) Now() time.Time { return time.Now().UTC() }

// The first start with no API user and no INVENTORY_API_KEY makes up the
// admin's key: it goes to a file only its owner may read, which the log
// names, and into no log line.
func TestAGeneratedAdminKeyIsInAPrivateFileAndNotInTheLog(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("INVENTORY_DATABASE_URL", "sqlite:"+filepath.Join(dir, "inventory.db"))
	t.Setenv("INVENTORY_HTTP_ADDR", freeAddr(t))
	t.Setenv("INVENTORY_API_KEY", "")
	cfg, err := bootstrap.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	// A key file left by an earlier database, readable by anyone, is
	// replaced, mode and all.
	if err := os.WriteFile(bootstrap.GeneratedKeyFile, []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zap.DebugLevel)
	app := fx.New(bootstrap.Options(cfg), fx.NopLogger, fx.Decorate(func() *zap.Logger { return zap.New(core) }))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	defer app.Stop(ctx)

	path := filepath.Join(dir, bootstrap.GeneratedKeyFile)
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v, %v; want mode 0600", info, err)
	}
	raw, _ := os.ReadFile(path)
	key := strings.TrimSuffix(string(raw), "\n")
	if len(key) < 32 || strings.ContainsAny(key, " \n") {
		t.Fatalf("the key file holds %q, want the key alone", raw)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+cfg.HTTPAddr+"/api/warehouses", nil)
	req.SetBasicAuth("admin", key)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the key from the file: %v %v", res, err)
	} else {
		res.Body.Close()
	}

	named := false
	for _, entry := range logs.All() {
		line := entry.Message
		for k, v := range entry.ContextMap() {
			line += fmt.Sprintf(" %s=%v", k, v)
			if k == "key_file" && v == path {
				named = true
			}
		}
		if strings.Contains(line, key) {
			t.Errorf("the log holds the key: %s", line)
		}
	}
	if !named {
		t.Errorf("no log line names the key file %s: %v", path, logs.All())
	}
}
