package test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Created resources are located under INVENTORY_BASE_URL when it is set,
// else under the scheme and host the request came with.
func TestLocationsFollowTheBaseURLOrTheRequest(t *testing.T) {
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
	if _, err := app.EnsureAPIUser(ctx, "admin", "secret-test-key-0123"); err != nil {
		t.Fatal(err)
	}
	create := func(base, code string, header http.Header) (string, string) {
		h, err := httpapi.NewHandler(app, zap.NewNop(), httpapi.Config{BaseURL: base}, db.Ping, prometheus.NewRegistry())
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodPost, "http://inventory.internal:8080/api/warehouses", strings.NewReader(`{"code":"`+code+`","name":"x"}`))
		req.Header = header
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", "secret-test-key-0123")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body struct {
			Data []struct{ Location string } `json:"data"`
		}
		if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &body) != nil || len(body.Data) != 1 {
			t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
		}
		return rec.Header().Get("Location"), body.Data[0].Location
	}

	header, data := create("https://erp.example.com/inventory/", "A", http.Header{})
	if header != "https://erp.example.com/inventory/api/warehouses/1" || data != header {
		t.Errorf("with a base URL: header %q, data %q", header, data)
	}
	header, _ = create("", "B", http.Header{})
	if header != "http://inventory.internal:8080/api/warehouses/2" {
		t.Errorf("from the request: %q", header)
	}
	// From a peer that is not a trusted proxy the header means nothing
	// (see TestForwardedHeadersOnlyFromTrustedProxies).
	header, _ = create("", "C", http.Header{"X-Forwarded-Proto": {"https"}})
	if header != "http://inventory.internal:8080/api/warehouses/3" {
		t.Errorf("X-Forwarded-Proto from anyone: %q", header)
	}
}

// The format components come back as they were sent, padding or not.
func TestBinLocationFormatComponentsRoundTrip(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		format := []any{
			map[string]any{"type": "text", "value": "R "},
			map[string]any{"type": "number", "from": float64(1), "to": float64(3)},
			map[string]any{"type": "letter", "from": "a", "to": "c"},
			map[string]any{"type": "number", "from": float64(0), "to": float64(9), "padding": float64(2)},
		}
		res := env.Do(t, http.MethodPost, "/api/warehouses", map[string]any{"code": "F", "name": "Format", "binLocationFormatComponents": format})
		if res.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		got := env.Do(t, http.MethodGet, "/api/warehouses/1", nil).JSON(t)["data"].(map[string]any)["binLocationFormatComponents"]
		if !reflect.DeepEqual(got, format) {
			t.Fatalf("sent %v, got back %v", format, got)
		}
	})
}
