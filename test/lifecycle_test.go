package test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/smtpserver"
	"github.com/shopstock/inventory/test/testdb"
)

// The service as the command runs it (bootstrap.Options with fx): the
// background loops it must run, and a stop (SIGTERM: fx's Run calls the
// same Stop) that finishes what is in flight and refuses what comes after.

// startService starts the service and stops it when the test ends, unless
// the test stopped it before. Without opts fx's own events are discarded.
func startService(t *testing.T, cfg bootstrap.Config, opts ...fx.Option) *fx.App {
	t.Helper()
	if len(opts) == 0 {
		opts = []fx.Option{fx.NopLogger}
	}
	app := fx.New(append([]fx.Option{bootstrap.Options(cfg)}, opts...)...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		app.Stop(ctx) //nolint:errcheck // a second Stop after the test's own is a no-op
	})
	return app
}

func stopService(t *testing.T, app *fx.App) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := app.Stop(ctx); err != nil {
		t.Fatalf("stop: %v", err)
	}
}

// bootFixture has a warehouse MAIN and an article on the service at cfg.
func bootFixture(t *testing.T, cfg bootstrap.Config) *ohFixture {
	t.Helper()
	f := &ohFixture{env: &apitest.Env{URL: "http://" + cfg.HTTPAddr}}
	f.main = f.created(t, f.env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main"}), true)
	f.art1 = f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-1"}), false)
	return f
}

// TestTheServiceRunsTheMailDispatcherAndTheIdempotencyPurge fails when
// either loop is unwired from bootstrap: a shipped order's status mail must
// reach the SMTP server, and a restart must forget expired batch keys.
func TestTheServiceRunsTheMailDispatcherAndTheIdempotencyPurge(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		srv := smtpserver.Start(t)
		t.Setenv("INVENTORY_SMTP_URL", srv.URL())
		t.Setenv("INVENTORY_IDEMPOTENCY_RETENTION", "1ms")
		cfg := bootConfig(t, databaseURL)
		app := startService(t, cfg)
		f := bootFixture(t, cfg)

		f.put(t, f.art1, ohWarehouse(f.main), 1)
		id, _ := f.newOrder(t, map[string]any{"number": "BOOT-1", "customerEmail": "jane@example.com",
			"details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id), nil))
		m := srv.WaitFor(t, 1, 20*time.Second)[0]
		if len(m.To) != 1 || m.To[0] != "jane@example.com" || !strings.Contains(m.Subject, "BOOT-1") {
			t.Errorf("mail to %v about %q", m.To, m.Subject)
		}

		batch := func(quantity int) *apitest.Response {
			return f.env.Do(t, "PUT", "/api/stock/change/purge-probe",
				[]any{map[string]any{"articleDetailId": f.art1, "quantity": quantity, "warehouse": map[string]any{"id": f.main}}})
		}
		ohBatch(t, batch(1))
		if res := batch(2); res.Status != http.StatusConflict {
			t.Fatalf("another batch under a remembered key: %s, want 409", res)
		}
		// The purge runs at start and then every ten minutes: a restart
		// forgets the key, which has outlived the 1 ms retention.
		stopService(t, app)
		startService(t, cfg)
		deadline := time.Now().Add(20 * time.Second)
		for {
			res := batch(2)
			if res.Status == http.StatusOK {
				break
			}
			if res.Status != http.StatusConflict || time.Now().After(deadline) {
				t.Fatalf("after a restart the expired key is still remembered: %s", res)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// TestStopFinishesAnInFlightBatchAndRefusesNewRequests stops the service
// while a 1000-operation batch is half sent: the batch still answers 200
// and commits, a request arriving meanwhile is refused at the door, and the
// stop completes after the batch.
func TestStopFinishesAnInFlightBatchAndRefusesNewRequests(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		cfg := bootConfig(t, databaseURL)
		app := startService(t, cfg)
		f := bootFixture(t, cfg)
		stopDuringBatch(t, f, cfg.HTTPAddr, func() <-chan error {
			stopped := make(chan error, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				stopped <- app.Stop(ctx)
			}()
			return stopped
		})
		startService(t, cfg)
		if got := f.stock(t, f.art1, f.main); got != 1000 {
			t.Fatalf("after a restart the stock is %d, want the batch's 1000", got)
		}
	})
}

// TestSIGTERMFinishesAnInFlightBatch does the same to the command itself,
// built and run as a process, with a real SIGTERM.
func TestSIGTERMFinishesAnInFlightBatch(t *testing.T) {
	root, _ := moduleRoot(t)
	bin := filepath.Join(t.TempDir(), "inventory")
	build := exec.Command("go", "build", "-o", bin, "./bootstrap/cmd/inventory")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfg := bootConfig(t, testdb.SQLite(t))
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "INVENTORY_LOG_LEVEL=warn")
	var logs strings.Builder
	cmd.Stderr = &logs
	cmd.Stdout = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-exited
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get("http://" + cfg.HTTPAddr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not become ready: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	f := bootFixture(t, cfg)
	stopDuringBatch(t, f, cfg.HTTPAddr, func() <-chan error {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		return exited
	})
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after SIGTERM\n%s", code, logs.String())
	}
}

// stopDuringBatch sends a 1000-operation batch, begins to stop the service
// with stop when half the body is sent, checks that a new request is
// refused, sends the rest and wants a 200 before stop's channel reports.
func stopDuringBatch(t *testing.T, f *ohFixture, addr string, stop func() <-chan error) {
	t.Helper()
	base := "http://" + addr
	ops := make([]any, 1000)
	for i := range ops {
		ops[i] = map[string]any{"articleDetailId": f.art1, "quantity": 1, "warehouse": map[string]any{"id": f.main}}
	}
	body, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	req, err := http.NewRequest(http.MethodPut, base+"/api/stock/change/in-flight", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(apitest.User, apitest.Key)
	type answer struct {
		status int
		body   string
		err    error
	}
	answered := make(chan answer, 1)
	client := &http.Client{Transport: &http.Transport{}}
	go func() {
		res, err := client.Do(req)
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		answered <- answer{res.StatusCode, string(b), err}
	}()
	if _, err := pw.Write(body[:len(body)/2]); err != nil {
		t.Fatal(err)
	}
	// Let the server read the request line before the stop begins.
	time.Sleep(200 * time.Millisecond)

	stopped := stop()
	waitRefused(t, addr)

	// A request arriving now is refused cleanly: no connection, not a
	// connection reset halfway through.
	late := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if res, err := late.Get(base + "/healthz"); !errors.Is(err, syscall.ECONNREFUSED) {
		if err == nil {
			res.Body.Close()
		}
		t.Errorf("a request after the stop began: %v, want connection refused", err)
	}
	select {
	case err := <-stopped:
		t.Fatalf("the service stopped (%v) before the in-flight batch was answered", err)
	default:
	}

	if _, err := pw.Write(body[len(body)/2:]); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	a := <-answered
	if a.err != nil || a.status != http.StatusOK || !strings.Contains(a.body, `"success":true`) {
		t.Fatalf("the in-flight batch: %d %v %.300s", a.status, a.err, a.body)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("stop: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the service did not stop after the batch")
	}
}

// waitRefused waits until addr refuses connections: the listener is closed.
func waitRefused(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if errors.Is(err, syscall.ECONNREFUSED) {
			return
		}
		if err == nil {
			conn.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still accepts connections: %v", addr, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAPlainStartPrintsAFewLines: fx's events go to the debug level; at
// info a start says which version runs, on which address, on which kind of
// database (never its credentials), and the file of the generated key when
// it made one.
func TestAPlainStartPrintsAFewLines(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // where the generated key goes
	databaseURL := strings.Replace(testdb.Postgres(t), "postgres@", "postgres:hunter2@", 1)
	cfg := bootConfig(t, databaseURL)
	cfg.APIKey = ""
	cfg.LogLevel = "debug"
	core, logs := observer.New(zapcore.DebugLevel)
	app := startService(t, cfg, fx.Decorate(func(*zap.Logger) *zap.Logger { return zap.New(core) }))
	started := logs.AllUntimed()
	stopService(t, app)

	var lines []string
	fields := map[string]any{}
	debugFx := 0
	for _, e := range started {
		if e.Level < zapcore.InfoLevel {
			if e.LoggerName == "fx" {
				debugFx++
			}
			continue
		}
		raw, _ := json.Marshal(e.ContextMap())
		lines = append(lines, e.Message+" "+string(raw))
		for k, v := range e.ContextMap() {
			fields[k] = v
		}
		if e.LoggerName == "fx" {
			t.Errorf("an fx event at %v: %s", e.Level, e.Message)
		}
	}
	all := strings.Join(lines, "\n")
	if len(lines) > 6 {
		t.Errorf("a start prints %d lines:\n%s", len(lines), all)
	}
	if debugFx == 0 {
		t.Error("fx's events are not logged at debug level")
	}
	if v, _ := fields["version"].(string); v == "" {
		t.Errorf("no version:\n%s", all)
	}
	if fields["addr"] != cfg.HTTPAddr {
		t.Errorf("no address %s:\n%s", cfg.HTTPAddr, all)
	}
	if fields["database"] != "postgres" {
		t.Errorf("no database kind:\n%s", all)
	}
	if fields["key_file"] != filepath.Join(dir, bootstrap.GeneratedKeyFile) {
		t.Errorf("no file of the generated key:\n%s", all)
	}
	if strings.Contains(all, "hunter2") || strings.Contains(all, "postgres://") {
		t.Errorf("the start prints the database URL:\n%s", all)
	}
}

// TestTheServiceSendsMailWithTheConfiguredTLSPolicyAndMechanism: the
// settings reach the mailer. The server offers no STARTTLS, which only
// INVENTORY_SMTP_TLS=none accepts with credentials, and PLAIN before LOGIN,
// which auto would pick.
func TestTheServiceSendsMailWithTheConfiguredTLSPolicyAndMechanism(t *testing.T) {
	srv := smtpserver.Start(t, smtpserver.WithAuth("PLAIN", "LOGIN"), smtpserver.WithCredentials("shop", "s3cret"))
	t.Setenv("INVENTORY_SMTP_URL", "smtp://shop:s3cret@"+srv.Addr())
	t.Setenv("INVENTORY_SMTP_TLS", "none")
	t.Setenv("INVENTORY_SMTP_AUTH", "login")
	cfg := bootConfig(t, testdb.SQLite(t))
	startService(t, cfg)
	f := bootFixture(t, cfg)
	f.put(t, f.art1, ohWarehouse(f.main), 1)
	id, _ := f.newOrder(t, map[string]any{"number": "TLS-1", "customerEmail": "jane@example.com",
		"details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
	ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id), nil))
	if m := srv.WaitFor(t, 1, 20*time.Second)[0]; m.Mech != "LOGIN" || m.User != "shop" || m.TLS {
		t.Errorf("mail sent with %q as %q, TLS %v; want LOGIN as shop in clear", m.Mech, m.User, m.TLS)
	}
}

func TestSMTPSettingsAreCheckedAtStart(t *testing.T) {
	for name, value := range map[string]string{"INVENTORY_SMTP_TLS": "sometimes", "INVENTORY_SMTP_AUTH": "digest-md5"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			if _, err := bootstrap.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s=%s: %v", name, value, err)
			}
		})
	}
	t.Setenv("INVENTORY_SMTP_URL", "smtps://mail.example.com")
	t.Setenv("INVENTORY_SMTP_TLS", "none")
	cfg := bootConfig(t, testdb.SQLite(t))
	if err := fx.New(bootstrap.Options(cfg), fx.NopLogger).Err(); err == nil || !strings.Contains(err.Error(), "smtps") {
		t.Errorf("smtps:// with INVENTORY_SMTP_TLS=none: %v", err)
	}
}

func TestMetricsShowTheConnectionPool(t *testing.T) {
	cfg := bootConfig(t, testdb.SQLite(t))
	startService(t, cfg)
	res, err := http.Get("http://" + cfg.HTTPAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, metric := range []string{`go_sql_max_open_connections{db_name="inventory"} 8`, `go_sql_in_use_connections{db_name="inventory"}`, `go_sql_wait_count_total{db_name="inventory"}`} {
		if !strings.Contains(string(body), metric) {
			t.Errorf("/metrics has no %s", metric)
		}
	}
}
