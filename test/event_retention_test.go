package test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/test/testdb"
)

// The running service purges events past INVENTORY_EVENT_RETENTION by
// itself, and a reader behind them is told so (410).
func TestTheServicePurgesEventsPastTheirRetention(t *testing.T) {
	t.Setenv("INVENTORY_DATABASE_URL", testdb.SQLite(t))
	t.Setenv("INVENTORY_HTTP_ADDR", freeAddr(t))
	t.Setenv("INVENTORY_API_KEY", "retention-secret")
	t.Setenv("INVENTORY_LOG_LEVEL", "warn")
	t.Setenv("INVENTORY_EVENT_RETENTION", "2s")
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
	defer app.Stop(ctx) //nolint:errcheck
	base := "http://" + cfg.HTTPAddr
	do := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.SetBasicAuth("admin", "retention-secret")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	do("POST", "/api/warehouses", `{"code": "W", "name": "W"}`)
	do("POST", "/api/articleDetails", `{"id": 1, "number": "SKU-1"}`)
	if status, body := do("PUT", "/api/stock/change/r-1", `[{"articleDetailId": 1, "quantity": 3, "warehouse": {"code": "W"}}]`); status != 200 {
		t.Fatalf("stock change: %d %s", status, body)
	}
	status, body := do("GET", "/api/events", "")
	var feed struct{ Last int64 }
	_ = json.Unmarshal([]byte(body), &feed)
	if status != 200 || feed.Last != 1 {
		t.Fatalf("feed: %d %s", status, body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body = do("GET", "/api/events?after=0", "")
		if status == http.StatusGone || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if status != http.StatusGone || !strings.Contains(body, `"events after 0 have been purged"`) {
		t.Fatalf("after the retention: %d %s", status, body)
	}
	if status, body := do("GET", fmt.Sprintf("/api/events?after=%d", feed.Last), ""); status != 200 {
		t.Errorf("a reader that read everything goes on: %d %s", status, body)
	}
}
