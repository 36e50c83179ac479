package test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/adapters/console"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/bootstrap"
)

// Slow clients: whoever sends a body slowly, or stops reading an answer,
// holds neither the in-flight limit nor the database's connections.

// slowClientServer runs the service's HTTP server, the API with the
// console mounted as the service wires them, on a fresh SQLite file with
// the API user admin:secret-test-key-0123.
func slowClientServer(t *testing.T, cfg httpapi.Config) (addr string, db *bunstore.DB) {
	t.Helper()
	h, app, db := limitsService(t, cfg)
	con, err := console.New(app, zap.NewNop(), console.Config{HTTPS: h.IsHTTPS, Guard: h})
	if err != nil {
		t.Fatal(err)
	}
	h.Mount(console.Prefix, con)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := bootstrap.HTTPServer("127.0.0.1:0", h)
	go srv.Serve(ln) //nolint:errcheck
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), db
}

// timedGet sends an authenticated GET and tells its status and how long
// the answer took; 0 when none came within 10 s.
func timedGet(t *testing.T, addr, path string) (int, time.Duration) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	req.SetBasicAuth("admin", "secret-test-key-0123")
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		t.Logf("GET %s: %v", path, err)
		return 0, time.Since(start)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, time.Since(start)
}

// More sign-in forms than the in-flight limit, sent a byte a second, leave
// the API answering, and are cut off at the body deadline.
func TestSlowSignInBodiesHoldNoSlot(t *testing.T) {
	t.Parallel()
	const limit, slow, deadline = 4, 10, 2 * time.Second
	addr, _ := slowClientServer(t, httpapi.Config{MaxInFlight: limit, BodyTimeout: deadline})
	body := "csrf=" + strings.Repeat("t", 52) + "&name=admin&key=wrong"
	type cut struct {
		status int
		after  time.Duration
		err    error
	}
	cuts := make(chan cut, slow)
	start := time.Now()
	for range slow {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		fmt.Fprintf(conn, "POST /console/signin HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n", addr, len(body))
		go func() {
			for i := range len(body) {
				if _, err := conn.Write([]byte{body[i]}); err != nil {
					return
				}
				time.Sleep(time.Second)
			}
		}()
		go func() {
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				cuts <- cut{err: err, after: time.Since(start)}
				return
			}
			res.Body.Close()
			cuts <- cut{status: res.StatusCode, after: time.Since(start)}
		}()
	}
	time.Sleep(500 * time.Millisecond) // every slow body has begun
	for i := range 3 {
		status, took := timedGet(t, addr, "/api/warehouses")
		if status != http.StatusOK || took > 2*time.Second {
			t.Errorf("API request %d beside %d slow sign-ins (limit %d): status %d after %v, want 200 within 2 s", i, slow, limit, status, took)
		}
		time.Sleep(300 * time.Millisecond)
	}
	for range slow {
		select {
		case c := <-cuts:
			if c.err != nil || c.status != http.StatusRequestTimeout || c.after > deadline+2*time.Second {
				t.Errorf("slow sign-in: status %d (%v) after %v, want 408 at the %v deadline", c.status, c.err, c.after, deadline)
			}
		case <-time.After(deadline + 5*time.Second):
			t.Fatalf("a slow sign-in still runs %v after it began (deadline %v)", time.Since(start), deadline)
		}
	}
}

// The sign-in form still works through the body read ahead of it, and one
// larger than its bound is refused without being read to the end.
func TestSignInBodyReadAhead(t *testing.T) {
	t.Parallel()
	addr, _ := slowClientServer(t, httpapi.Config{})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get("http://" + addr + "/console/signin")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var token string
	for _, c := range res.Cookies() {
		if c.Name == "inventory_console_signin" {
			token = c.Value
		}
	}
	if token == "" {
		t.Fatal("the sign-in page set no token cookie")
	}
	post := func(form string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/console/signin", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: "inventory_console_signin", Value: token})
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	if res := post("csrf=" + token + "&name=admin&key=secret-test-key-0123"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-in with the right key: %d, want 303", res.StatusCode)
	}
	if res := post("csrf=" + token + "&name=admin&key=secret-test-key-0123&pad=" + strings.Repeat("x", 16<<10)); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("sign-in form of 16 KiB and more: %d, want 413", res.StatusCode)
	}
	// A body that breaks off in a way no waiting mends is a 400, not a 408.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /console/signin HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", addr)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if res, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil || res.StatusCode != http.StatusBadRequest {
		t.Errorf("sign-in form in broken chunks: %v %v, want 400", res, err)
	}
}

// seedLongExport fills the database with mappings whose codes are long:
// bins × articles lines, some 150 bytes each, far more than the socket
// buffers hold.
func seedLongExport(t *testing.T, db *bunstore.DB, bins, articles int) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO warehouses (id, code, name, is_default, is_default_return) VALUES (1, 'WH', 'Warehouse', TRUE, TRUE)`,
		`INSERT INTO bin_locations (warehouse_id, code) VALUES (1, 'erp_null_bin_location')`,
		`UPDATE warehouses SET null_bin_location_id = (SELECT id FROM bin_locations WHERE code = 'erp_null_bin_location') WHERE id = 1`,
		fmt.Sprintf(`WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %d)
			INSERT INTO bin_locations (warehouse_id, code) SELECT 1, printf('BIN-%%060d', x) FROM g`, bins),
		fmt.Sprintf(`WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %d)
			INSERT INTO article_details (id, number, name) SELECT x, printf('SKU-%%060d', x), '' FROM g`, articles),
		`INSERT INTO stock_mappings (bin_location_id, warehouse_id, article_detail_id, stock, reserved_stock, is_default)
			SELECT b.id, 1, a.id, 7, 0, FALSE FROM bin_locations b CROSS JOIN article_details a
			WHERE b.code <> 'erp_null_bin_location'`,
	} {
		if _, err := db.Bun().ExecContext(context.Background(), q); err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
	}
}

// Exports whose clients never read hold no database connection: the
// service stays ready and answers others at once, and the stalled
// connections are closed at the write deadline.
func TestStalledExportsHoldNoConnection(t *testing.T) {
	t.Parallel()
	// As many stalled exports as the SQLite pool has connections.
	const stalled, deadline = 8, 2 * time.Second
	addr, db := slowClientServer(t, httpapi.Config{WriteTimeout: deadline})
	seedLongExport(t, db, 40, 1000) // 40 000 lines, about 6 MB: more than the socket buffers hold
	type export struct {
		conn net.Conn
		in   *bufio.Reader
		res  *http.Response
	}
	exports := make([]*export, stalled)
	for i := range exports {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		exports[i] = &export{conn: c, in: bufio.NewReader(c)}
		fmt.Fprintf(c, "GET /api/stock.csv HTTP/1.1\r\nHost: %s\r\nAuthorization: Basic YWRtaW46c2VjcmV0LXRlc3Qta2V5LTAxMjM=\r\n\r\n", addr)
	}
	// Once every answer has begun, the exports have read their rows; then
	// their clients read no more.
	for i, e := range exports {
		_ = e.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		res, err := http.ReadResponse(e.in, nil)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("export %d: %v %v", i, res, err)
		}
		e.res = res
	}
	stall := time.Now()
	for time.Since(stall) < deadline-500*time.Millisecond {
		if status, took := timedGet(t, addr, "/readyz"); status != http.StatusOK || took > time.Second {
			t.Errorf("/readyz beside %d stalled exports: %d after %v, want 200 at once", stalled, status, took)
		}
		if status, took := timedGet(t, addr, "/api/warehouses"); status != http.StatusOK || took > time.Second {
			t.Errorf("an API request beside %d stalled exports: %d after %v, want 200 at once", stalled, status, took)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Past the deadline every stalled answer has been cut: reading it now
	// finds its end short of its Content-Length. Had the server kept it
	// open, reading would let it finish whole.
	time.Sleep(time.Until(stall.Add(deadline + 1500*time.Millisecond)))
	for i, e := range exports {
		_ = e.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, err := io.Copy(io.Discard, e.res.Body)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("stalled export %d: the connection is still open %v after the write deadline", i, time.Since(stall)-deadline)
			continue
		}
		if want := e.res.ContentLength; !errors.Is(err, io.ErrUnexpectedEOF) || n >= want {
			t.Errorf("stalled export %d: %d of %d bytes, %v; want the answer cut short", i, n, want, err)
		}
	}
}
