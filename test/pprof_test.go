package test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/test/testdb"
)

// pprofStartService starts the whole service as the command does, on SQLite,
// with the environment the test set, and stops it at the end.
func pprofStartService(t *testing.T) bootstrap.Config {
	t.Helper()
	t.Setenv("INVENTORY_DATABASE_URL", testdb.SQLite(t))
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
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := app.Stop(ctx); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return cfg
}

func pprofGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestProfilingIsOffByDefault(t *testing.T) {
	t.Setenv("INVENTORY_HTTP_ADDR", freeAddr(t))
	t.Setenv("INVENTORY_PPROF_ADDR", "")
	cfg := pprofStartService(t)
	if cfg.PprofAddr != "" {
		t.Fatalf("no profiling address unless configured: %q", cfg.PprofAddr)
	}
	if status, _ := pprofGet(t, "http://"+cfg.HTTPAddr+"/debug/pprof/"); status == http.StatusOK {
		t.Fatal("the API port serves profiles")
	}
}

func TestProfilingListenerServesPprofOnItsOwnAddress(t *testing.T) {
	t.Setenv("INVENTORY_HTTP_ADDR", freeAddr(t))
	t.Setenv("INVENTORY_PPROF_ADDR", freeAddr(t))
	cfg := pprofStartService(t)
	base := "http://" + cfg.PprofAddr
	status, body := pprofGet(t, base+"/debug/pprof/")
	if status != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Fatalf("/debug/pprof/: %d %.200s", status, body)
	}
	if status, body := pprofGet(t, base+"/debug/pprof/heap?debug=1"); status != http.StatusOK || !strings.Contains(body, "heap profile") {
		t.Fatalf("heap profile: %d %.200s", status, body)
	}
	if status, _ := pprofGet(t, base+"/debug/pprof/profile?seconds=1"); status != http.StatusOK {
		t.Fatalf("CPU profile: %d", status)
	}
	if status, _ := pprofGet(t, base+"/api/warehouses"); status != http.StatusNotFound {
		t.Fatalf("the profiling listener serves the API: %d", status)
	}
	if status, _ := pprofGet(t, "http://"+cfg.HTTPAddr+"/debug/pprof/"); status == http.StatusOK {
		t.Fatal("the API port serves profiles")
	}
}

func TestProfilingRefusesTheAPIAddress(t *testing.T) {
	for _, c := range []struct{ api, pprof string }{
		{"127.0.0.1:8080", "127.0.0.1:8080"},
		{"127.0.0.1:8080", ":8080"},
		{":8080", "127.0.0.1:8080"},
		{"0.0.0.0:9000", "127.0.0.1:9000"},
	} {
		t.Setenv("INVENTORY_HTTP_ADDR", c.api)
		t.Setenv("INVENTORY_PPROF_ADDR", c.pprof)
		if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "INVENTORY_PPROF_ADDR") {
			t.Errorf("API %s, profiles %s: want a refusal naming INVENTORY_PPROF_ADDR, got %v", c.api, c.pprof, err)
		}
	}
	t.Setenv("INVENTORY_HTTP_ADDR", "127.0.0.1:8080")
	t.Setenv("INVENTORY_PPROF_ADDR", "127.0.0.1:6060")
	if _, err := bootstrap.ConfigFromEnv(); err != nil {
		t.Errorf("a port of its own is accepted: %v", err)
	}
	t.Setenv("INVENTORY_PPROF_ADDR", "6060")
	if _, err := bootstrap.ConfigFromEnv(); err == nil {
		t.Error("an address without a port is refused")
	}
	// A configuration built by hand is checked when the service starts.
	cfg := bootstrap.Config{HTTPAddr: freeAddr(t), DatabaseURL: testdb.SQLite(t), APIKey: "k-0123456789abcdef", LogLevel: "warn", LogFormat: "json", IdempotencyRetention: time.Hour}
	cfg.PprofAddr = cfg.HTTPAddr
	app := fx.New(bootstrap.Options(cfg), fx.NopLogger)
	if err := app.Err(); err == nil || !strings.Contains(err.Error(), "INVENTORY_PPROF_ADDR") {
		t.Fatalf("the service refuses to start: %v", err)
	}
}
