package test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// hardeningHandler is the HTTP adapter on a fresh SQLite database, with its
// log and metrics kept for inspection.
func hardeningHandler(t *testing.T) (*httpapi.Handler, *observer.ObservedLogs, *prometheus.Registry) {
	t.Helper()
	db, err := bunstore.Open(testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	app := application.New(db, bootClock{}, apitest.Secrets(t))
	if _, err := app.EnsureAPIUser(apitest.Admin(), apitest.User, apitest.Key); err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zapcore.DebugLevel)
	reg := prometheus.NewRegistry()
	h, err := httpapi.NewHandler(app, zap.New(core), httpapi.Config{}, db.Ping, reg)
	if err != nil {
		t.Fatal(err)
	}
	return h, logs, reg
}

// A client that hangs up before its answer is no failure of the service:
// it is logged without a stack below error level and counted as 499, never
// as a 500.
func TestAClientThatGoesAwayIsNotAnError(t *testing.T) {
	h, logs, reg := hardeningHandler(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodGet, "/api/warehouses", nil).WithContext(ctx)
	req.SetBasicAuth(apitest.User, apitest.Key)
	h.ServeHTTP(httptest.NewRecorder(), req)
	for _, e := range logs.All() {
		if e.Level >= zapcore.WarnLevel {
			t.Errorf("logged at %s: %s %v", e.Level, e.Message, e.ContextMap())
		}
		if e.Stack != "" {
			t.Errorf("logged with a stack: %s", e.Message)
		}
	}
	counted := func(status string) float64 {
		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		n := 0.0
		for _, f := range families {
			if f.GetName() != "inventory_http_requests_total" {
				continue
			}
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "status" && l.GetValue() == status {
						n += m.GetCounter().GetValue()
					}
				}
			}
		}
		return n
	}
	if counted("499") != 1 || counted("500") != 0 {
		t.Fatalf("counted as 499: %v, as 500: %v", counted("499"), counted("500"))
	}
}

// JSON answers tell browsers not to guess another type from their bytes.
func TestJSONAnswersForbidSniffing(t *testing.T) {
	env := apitest.New(t, testdb.SQLite(t))
	for _, path := range []string{"/api/warehouses", "/api/no-such-thing"} {
		res := env.Do(t, http.MethodGet, path, nil)
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", path, got)
		}
	}
}

// The console's pages may not move their base elsewhere: relative links
// and forms stay on the service.
func TestTheConsolePolicyForbidsABase(t *testing.T) {
	base := consoleService(t, testdb.SQLite(t))
	resp, err := http.Get(base + "/console/signin")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "base-uri 'none'") {
		t.Fatalf("Content-Security-Policy: %s", csp)
	}
}
