package test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The server's own limits: reading the headers may take 10 s, the whole
// request 60 s, an idle connection stays 120 s, and headers over 64 KiB are
// a 431, so that a slow or greedy client cannot hold the server.
func TestHTTPServerLimits(t *testing.T) {
	t.Parallel()
	srv := bootstrap.HTTPServer("127.0.0.1:0", limitsHandler(t, httpapi.Config{}))
	if srv.ReadHeaderTimeout != 10*time.Second || srv.ReadTimeout != 60*time.Second || srv.IdleTimeout != 120*time.Second {
		t.Errorf("timeouts: header %v, read %v, idle %v", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln) //nolint:errcheck
	defer srv.Close()
	send := func(headerBytes int) int {
		req, _ := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+"/healthz", nil)
		req.Header.Set("X-Padding", strings.Repeat("p", headerBytes))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%d header bytes: %v", headerBytes, err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := send(63 << 10); got != http.StatusOK {
		t.Errorf("63 KiB of headers: %d", got)
	}
	for _, n := range []int{64<<10 + 1, 65 << 10, 80 << 10, 1 << 20} {
		if got := send(n); got != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%d bytes of headers: %d, want 431", n, got)
		}
	}
}

// A request still running after INVENTORY_REQUEST_TIMEOUT is cancelled,
// rolled back and answered 503.
func TestRequestTimeoutRollsBack(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.NewWithConfig(t, databaseURL, httpapi.Config{RequestTimeout: 30 * time.Millisecond})
		id, err := env.App.CreateWarehouse(apitest.Admin(), warehouse.Details{
			Code: "BIG", Name: "Big", BinLocationFormat: []warehouse.FormatComponent{
				{Type: warehouse.ComponentText, Text: "BIN-"},
				{Type: warehouse.ComponentNumber, NumberFrom: 1, NumberTo: 100000, Padding: 6},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		res := env.Do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", id), nil)
		if res.Status != http.StatusServiceUnavailable || string(res.Body) != `{"success":false,"message":"request timed out"}` {
			t.Fatalf("generate 100000 bin locations in 30 ms: %s, want 503 request timed out", res)
		}
		page, err := env.App.BinLocations(apitest.Admin(), ports.ListQuery{Limit: 10, Filters: []ports.Filter{
			{Property: "binLocation.warehouseId", Values: []any{id}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 {
			t.Errorf("after the timeout the warehouse has %d bin locations, want only its unknown one", page.Total)
		}
	})
}

// Requests beyond INVENTORY_MAX_IN_FLIGHT get 503 with Retry-After at once.
func TestMaxInFlight(t *testing.T) {
	t.Parallel()
	const deadline = 3 * time.Second
	env := apitest.NewWithConfig(t, testdb.SQLite(t), httpapi.Config{MaxInFlight: 1, WriteTimeout: deadline})
	// The request in flight is an export whose client reads its headers
	// and no more: it holds its slot until the write deadline cuts it. (A
	// body sent slowly holds none: TestStalledUploadsLeaveOthersServed.)
	seedLongExport(t, env.DB, 40, 1000)
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET /api/stock.csv HTTP/1.1\r\nHost: inventory\r\nAuthorization: Basic %s\r\n\r\n",
		base64.StdEncoding.EncodeToString([]byte(apitest.User+":"+apitest.Key)))
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	if res, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the export: %v %v", res, err)
	}
	stalled := time.Now()
	busy := env.Do(t, "GET", "/api/warehouses", nil)
	if busy.Status != http.StatusServiceUnavailable || busy.Header.Get("Retry-After") != "1" {
		t.Errorf("a second request while one is in flight: %d, Retry-After %q; want 503, 1", busy.Status, busy.Header.Get("Retry-After"))
	}
	if time.Since(stalled) >= deadline {
		t.Fatalf("the check took %v, past the write deadline of the request in flight", time.Since(stalled))
	}
	whStatus(t, env.Do(t, "GET", "/healthz", nil), http.StatusOK) // probes are not limited
	// Once the stalled export is cut, its slot is free again.
	for time.Since(stalled) < deadline+10*time.Second {
		if res := env.Do(t, "GET", "/api/warehouses", nil); res.Status == http.StatusOK {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Error("the slot of the cut export never came free")
}

// Metric labels take known values only.
func TestMetricLabelsAreBounded(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, testdb.SQLite(t))
	for _, m := range []string{"FOO", "BAR-" + strings.Repeat("X", 50), "PROPFIND"} {
		env.DoRaw(t, whRequest(t, m, "/api/warehouses", "", ""))
		env.DoRaw(t, whRequest(t, m, "/nowhere/"+m, "", ""))
	}
	res := env.Do(t, "GET", "/metrics", nil)
	body := string(res.Body)
	if strings.Contains(body, "FOO") || strings.Contains(body, "PROPFIND") || strings.Contains(body, "nowhere") {
		t.Errorf("a client-chosen value became a label:\n%s", grepLines(body, "inventory_http_requests_total"))
	}
	if !strings.Contains(body, `method="OTHER"`) {
		t.Errorf("unknown methods are not counted as OTHER:\n%s", grepLines(body, "inventory_http_requests_total"))
	}
}

func grepLines(s, substr string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, substr) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// limitsHandler is the HTTP adapter on a fresh SQLite database with the
// API user admin:secret.
func limitsHandler(t *testing.T, cfg httpapi.Config) *httpapi.Handler {
	t.Helper()
	h, _, _ := limitsService(t, cfg)
	return h
}

// limitsService is limitsHandler with the use cases and the database it
// runs on.
func limitsService(t *testing.T, cfg httpapi.Config) (*httpapi.Handler, *application.App, *bunstore.DB) {
	t.Helper()
	ctx := apitest.Admin()
	db, err := bunstore.Open(testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	app := application.New(db, bootClock{}, apitest.Secrets(t))
	if _, err := app.EnsureAPIUser(ctx, "admin", "secret-test-key-0123"); err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.NewHandler(app, zap.NewNop(), cfg, db.Ping, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	return h, app, db
}

// X-Forwarded-* are believed from trusted proxies only.
func TestForwardedHeadersOnlyFromTrustedProxies(t *testing.T) {
	trusted, err := httpapi.ParseTrustedProxies("10.0.0.0/8, 192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	h := limitsHandler(t, httpapi.Config{TrustedProxies: trusted})
	n := 0
	create := func(peer string, header http.Header) string {
		n++
		req := httptest.NewRequest(http.MethodPost, "http://inventory.internal:8080/api/warehouses", strings.NewReader(fmt.Sprintf(`{"code":"P%d","name":"x"}`, n)))
		req.RemoteAddr = peer
		for k, v := range header {
			req.Header[k] = v
		}
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", "secret-test-key-0123")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
		}
		return strings.TrimSuffix(rec.Header().Get("Location"), fmt.Sprint("/api/warehouses/", n))
	}
	forwarded := http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"erp.example.com"}}
	if got := create("10.1.2.3:5555", forwarded); got != "https://erp.example.com" {
		t.Errorf("from a trusted proxy: %q", got)
	}
	if got := create("192.0.2.7:5555", forwarded); got != "https://erp.example.com" {
		t.Errorf("from a trusted single address: %q", got)
	}
	if got := create("192.0.2.8:5555", forwarded); got != "http://inventory.internal:8080" {
		t.Errorf("from anyone else: %q", got)
	}
	if got := create("10.1.2.3:5555", http.Header{"X-Forwarded-Host": {"evil.example/x"}}); got != "http://inventory.internal:8080" {
		t.Errorf("a forwarded host that is no host: %q", got)
	}

	client := func(peer string, xff ...string) string {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = peer
		for _, v := range xff {
			req.Header.Add("X-Forwarded-For", v)
		}
		return h.ClientAddress(req)
	}
	for _, tc := range []struct {
		peer string
		xff  []string
		want string
	}{
		{"198.51.100.1:4000", nil, "198.51.100.1"},
		{"198.51.100.1:4000", []string{"203.0.113.9"}, "198.51.100.1"}, // not a proxy: ignored
		{"10.0.0.1:4000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"10.0.0.1:4000", []string{"1.1.1.1, 203.0.113.9, 10.0.0.2"}, "203.0.113.9"}, // the client may lie about what came before
		{"10.0.0.1:4000", []string{"1.1.1.1", "203.0.113.9"}, "203.0.113.9"},
		{"10.0.0.1:4000", []string{"garbage"}, "10.0.0.1"},
		{"10.0.0.1:4000", nil, "10.0.0.1"},
		{"[::1]:4000", []string{"203.0.113.9"}, "::1"},
	} {
		if got := client(tc.peer, tc.xff...); got != tc.want {
			t.Errorf("client of %s via %v = %q, want %q", tc.peer, tc.xff, got, tc.want)
		}
	}
	if _, err := httpapi.ParseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("a bad CIDR must fail")
	}
}

func TestTrustedProxiesConfiguration(t *testing.T) {
	t.Setenv("INVENTORY_TRUSTED_PROXIES", "not-a-cidr")
	if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "INVENTORY_TRUSTED_PROXIES") {
		t.Errorf("a bad INVENTORY_TRUSTED_PROXIES: %v", err)
	}
	t.Setenv("INVENTORY_TRUSTED_PROXIES", "")
	t.Setenv("INVENTORY_MAX_IN_FLIGHT", "0")
	if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "INVENTORY_MAX_IN_FLIGHT") {
		t.Errorf("INVENTORY_MAX_IN_FLIGHT=0: %v", err)
	}
	t.Setenv("INVENTORY_MAX_IN_FLIGHT", "")
	t.Setenv("INVENTORY_REQUEST_TIMEOUT", "soon")
	if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "INVENTORY_REQUEST_TIMEOUT") {
		t.Errorf("INVENTORY_REQUEST_TIMEOUT=soon: %v", err)
	}
	t.Setenv("INVENTORY_REQUEST_TIMEOUT", "")
	c, err := bootstrap.ConfigFromEnv()
	if err != nil || c.RequestTimeout != 60*time.Second || c.MaxInFlight != 256 || len(c.TrustedProxies) != 0 {
		t.Errorf("defaults: %+v %v", c, err)
	}
	t.Setenv("INVENTORY_TRUSTED_PROXIES", "10.0.0.0/8,::1")
	if c, err = bootstrap.ConfigFromEnv(); err != nil || len(c.TrustedProxies) != 2 || c.TrustedProxies[1] != netip.MustParsePrefix("::1/128") {
		t.Errorf("two proxies: %v %v", c.TrustedProxies, err)
	}
}

// A new SQLite file is readable by its owner only.
func TestSQLiteFileIsPrivate(t *testing.T) {
	t.Parallel()
	url := testdb.SQLite(t)
	db, err := bunstore.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(url, "sqlite:")
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) && p != path {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %o, want 600", p, mode)
		}
	}
}

// A writer waiting for SQLite's one write slot gives up when its context
// ends, instead of queueing until the one before it is done.
func TestSQLiteWriterQueueHonoursTheContext(t *testing.T) {
	t.Parallel()
	db, err := bunstore.Open(testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := apitest.Admin()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	first := make(chan error)
	go func() {
		first <- db.Write(ctx, func(context.Context, ports.Store) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	waitCtx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = db.Write(waitCtx, func(context.Context, ports.Store) error { return nil })
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("a waiting writer whose context ended: %v after %v", err, time.Since(start))
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

// bun writes values into the SQL text and escapes only quotes: with
// standard_conforming_strings off a backslash would escape, so every
// connection pins it on, whatever the database's default.
func TestPostgresStandardConformingStringsIsPinned(t *testing.T) {
	t.Parallel()
	databaseURL := testdb.Postgres(t)
	ctx := apitest.Admin()
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{conn.Config().Database}.Sanitize()+" SET standard_conforming_strings = off"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var scs string
	if err := db.Bun().QueryRowContext(ctx, "SHOW standard_conforming_strings").Scan(&scs); err != nil || scs != "on" {
		t.Fatalf("standard_conforming_strings = %q (%v), want on", scs, err)
	}
	app := application.New(db, bootClock{}, apitest.Secrets(t))
	name := `C:\new\table' OR '1'='1 \' --`
	id, err := app.CreateArticleDetail(ctx, 0, `N\1`, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := app.ArticleDetail(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Article.Name() != name || got.Article.Number() != `N\1` {
		raw, _ := json.Marshal([]string{got.Article.Number(), got.Article.Name()})
		t.Errorf("stored %s", raw)
	}
}
