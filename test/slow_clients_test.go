package test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/adapters/console"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/test/testdb"
)

// Slow clients: whoever sends a body slowly, or stops reading an answer,
// holds neither the in-flight limit nor the database's connections.

// slowClientServer runs the service's HTTP server, the API with the
// console mounted as the service wires them, on a fresh SQLite file with
// the API user admin:secret-test-key-0123.
func slowClientServer(t *testing.T, cfg httpapi.Config) (addr string, db *bunstore.DB) {
	t.Helper()
	ctx := context.Background()
	db, err := bunstore.Open(testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	app := application.New(db, bootClock{})
	if _, err := app.EnsureAPIUser(application.WithPrincipal(ctx, application.System), "admin", "secret-test-key-0123"); err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.NewHandler(app, zap.NewNop(), cfg, db.Ping, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
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
}
