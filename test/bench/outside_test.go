package bench_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The outside benchmarks (BenchmarkOutside…) measure the service as a client
// measures it: the real binary, started as a user starts it, called over
// HTTP on a loopback port. Nothing in them reaches into the service's
// packages; SQL touches the service's tables only to check invariants
// afterwards and, in the growth benchmark, to add history in bulk.

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// inventoryBinary builds ./bootstrap/cmd/inventory once per test process,
// into one directory per checkout that every run from it reuses, so that
// runs leave no copies behind, and a run from another checkout of the
// repository (another branch) never replaces the binary a run is about to
// start.
func inventoryBinary(b *testing.B) string {
	buildOnce.Do(func() {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			buildErr = err
			return
		}
		checkout := sha256.Sum256([]byte(root))
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("inventory-bench-%d-%x", os.Getuid(), checkout[:6]))
		if buildErr = os.MkdirAll(dir, 0o700); buildErr != nil {
			return
		}
		binary = filepath.Join(dir, "inventory")
		cmd := exec.Command("go", "build", "-o", binary, "./bootstrap/cmd/inventory")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return binary
}

// service is a running inventory binary.
type service struct {
	url string
	cmd *exec.Cmd
	api client
}

// startService starts the binary on databaseURL with a free loopback port
// and waits until it answers /readyz. It is stopped (SIGTERM) when b ends.
func startService(b *testing.B, databaseURL string) *service {
	bin := inventoryBinary(b)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	logFile, err := os.Create(filepath.Join(b.TempDir(), "service.log"))
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"INVENTORY_DATABASE_URL="+databaseURL,
		"INVENTORY_API_KEY="+apitest.Key,
		"INVENTORY_SECRET_KEY="+testdb.SecretKey,
		"INVENTORY_HTTP_ADDR="+addr,
		"INVENTORY_LOG_LEVEL=warn",
	)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &service{url: "http://" + addr, cmd: cmd}
	s.api = newClient(s.url)
	b.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logFile.Close()
	})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(s.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			logged, _ := os.ReadFile(logFile.Name())
			b.Fatalf("service on %s not ready: %v\n%s", addr, err, tail(logged))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func tail(b []byte) []byte {
	if len(b) > 3000 {
		return b[len(b)-3000:]
	}
	return b
}

// rssKB is the service's resident set size in KiB (Linux).
func (s *service) rssKB() (int, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", s.cmd.Process.Pid)
}

// client is a plain HTTP client with Basic auth, as a shop's ERP would use.
type client struct {
	url  string
	http *http.Client
}

func newClient(url string) client {
	return client{url: url, http: &http.Client{
		Timeout:   5 * time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: 64},
	}}
}

// call sends body (a []byte is sent as it is, anything else as JSON, nil
// as none) and returns the status and the answer.
func (c client) call(method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(v)
	default:
		raw, err := json.Marshal(v)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, c.url+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.SetBasicAuth(apitest.User, apitest.Key)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// must calls and fails unless the answer has the status; it returns the
// answer.
func (c client) must(status int, method, path string, body any) ([]byte, error) {
	got, out, err := c.call(method, path, body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if got != status {
		return nil, fmt.Errorf("%s %s: %d %.400s", method, path, got, out)
	}
	return out, nil
}

// createdID reads the id of a create's answer: data {id} or data [{id}].
func createdID(out []byte) (int64, error) {
	var one struct {
		Data struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(out, &one); err == nil && one.Data.ID != 0 {
		return one.Data.ID, nil
	}
	var many struct {
		Data []struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(out, &many); err != nil || len(many.Data) != 1 {
		return 0, fmt.Errorf("no id in %.300s", out)
	}
	return many.Data[0].ID, nil
}

// envInt reads a count from the environment, or def.
func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

// eachDatabase runs fn as the sub-benchmarks "sqlite" and "postgres", each
// on a fresh database. The SQLite file lies in a directory of its own, so
// that a floor can put its own file beside it.
func eachDatabase(b *testing.B, fn func(b *testing.B, url string)) {
	b.Run("sqlite", func(b *testing.B) { fn(b, testdb.SQLite(b)) })
	b.Run("postgres", func(b *testing.B) { fn(b, testdb.Postgres(b)) })
}

// openSQL opens the database the service runs on for plain SQL: checks
// and, in the growth benchmark, bulk history. On SQLite it uses the
// service's own settings (WAL, immediate transactions, a busy timeout).
func openSQL(b *testing.B, url string) *sql.DB {
	var db *sql.DB
	var err error
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok {
		db, err = sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_txlock=immediate")
	} else {
		db, err = sql.Open("pgx", url)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// durabilityOf names the durability settings the database runs with.
func durabilityOf(b *testing.B, db *sql.DB, postgres bool) string {
	queries := []string{"PRAGMA journal_mode", "PRAGMA synchronous"}
	if postgres {
		queries = []string{"SHOW fsync", "SHOW synchronous_commit", "SHOW full_page_writes"}
	}
	var out []string
	for _, q := range queries {
		var v string
		if err := db.QueryRow(q).Scan(&v); err != nil {
			b.Fatal(err)
		}
		out = append(out, q+" = "+v)
	}
	return strings.Join(out, "; ")
}

// checkCounts runs queries that each count violations, and fails the
// benchmark naming those that found any.
func checkCounts(b *testing.B, db *sql.DB, checks map[string]string) {
	var failed []string
	for name, q := range checks {
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			b.Fatalf("check %q: %v", name, err)
		}
		if n > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d", name, n))
		}
	}
	slices.Sort(failed)
	if len(failed) > 0 {
		b.Fatalf("invariants violated: %s", strings.Join(failed, "; "))
	}
}

// percentile of sorted durations, p in 0..100.
func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}
