// Package testdb hands tests fresh databases in the form of
// INVENTORY_DATABASE_URL (sqlite:PATH or postgres://…): an SQLite file in the
// test's temp dir, or a new, empty PostgreSQL database.
//
// PostgreSQL comes from the server named by TEST_DATABASE_URL (a postgres://
// URL; a database is created on it per call and dropped afterwards) or, when
// that is unset, from one throwaway cluster per test process, started lazily
// from /usr/lib/postgresql/*/bin. Packages that use Postgres must call Main
// from their TestMain so that the cluster is stopped and removed at the end.
//
// Without a server the PostgreSQL tests are skipped, unless
// INVENTORY_REQUIRE_POSTGRES=1, which turns the skip into a failure.
// TESTDB_FSYNC=on keeps the cluster durable (fsync and friends on), for
// benchmarks.
package testdb

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// SecretKey is the service's secret (INVENTORY_SECRET_KEY) for tests: the
// service needs one on PostgreSQL, and what a test stores under it stays
// checkable by every instance the test starts. 32 bytes, base64.
const SecretKey = "dGVzdCBzZWNyZXQga2V5LCBub3QgZm9yIHNlcnZpY2Uh"

// SQLite returns the URL of an SQLite database file in a directory that the
// test owns: "sqlite:" followed by the absolute path. The file does not exist
// yet; the service creates it.
func SQLite(t testing.TB) string {
	t.Helper()
	return "sqlite:" + filepath.Join(t.TempDir(), "inventory.db")
}

// Postgres returns a postgres:// URL to a fresh, empty database, created for
// this call and dropped when the test ends. It skips the test (or fails it,
// when INVENTORY_REQUIRE_POSTGRES=1) when no PostgreSQL server is available.
func Postgres(t testing.TB) string {
	t.Helper()
	adminURL, err := serverURL()
	if err != nil {
		unavailable(t, err)
	}
	name := "t_" + randomHex(8)
	if err := adminExec(adminURL, "CREATE DATABASE "+name); err != nil {
		var ce *connectError
		if errors.As(err, &ce) {
			unavailable(t, err)
		}
		t.Fatalf("testdb: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		// FORCE (PostgreSQL 13+) ends connections the test left open.
		if err := adminExec(adminURL, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("testdb: drop database %s: %v", name, err)
		}
	})

	u, err := url.Parse(adminURL)
	if err != nil {
		t.Fatalf("testdb: parse server URL: %v", err)
	}
	u.Path = "/" + name
	u.RawPath = ""
	return u.String()
}

// Each runs fn as the subtests "sqlite" and "postgres", with a fresh
// database of each kind.
func Each(t *testing.T, fn func(t *testing.T, databaseURL string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// Main is for TestMain: it runs the tests, stops and removes the throwaway
// cluster if one was started, and exits with the tests' code.
func Main(m *testing.M) {
	code := m.Run()
	stopBouncer()
	stopCluster()
	os.Exit(code)
}

// unavailable skips the test, or fails it when PostgreSQL is required.
func unavailable(t testing.TB, reason error) {
	t.Helper()
	if os.Getenv("INVENTORY_REQUIRE_POSTGRES") == "1" {
		t.Fatalf("testdb: PostgreSQL required (INVENTORY_REQUIRE_POSTGRES=1) but unavailable: %v", reason)
	}
	oneLine := strings.Join(strings.Fields(reason.Error()), " ")
	if len(oneLine) > 300 {
		oneLine = oneLine[:300] + "…"
	}
	t.Skipf("testdb: PostgreSQL unavailable: %s", oneLine)
}

// serverURL returns the URL of a maintenance database on the server that
// test databases are created on.
func serverURL() (string, error) {
	if s := os.Getenv("TEST_DATABASE_URL"); s != "" {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return "", fmt.Errorf("TEST_DATABASE_URL must be a postgres:// URL, got %q", s)
		}
		return s, nil
	}
	clusterOnce.Do(func() { theCluster, clusterErr = startCluster() })
	if clusterErr != nil {
		return "", clusterErr
	}
	return theCluster.url, nil
}

var (
	adminMu    sync.Mutex
	adminConns = map[string]*pgx.Conn{}
)

// adminExec runs sql on one shared connection to url, (re)connecting when
// needed. Creating and dropping databases is serialised per process.
func adminExec(url, sql string) error {
	adminMu.Lock()
	defer adminMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := adminConns[url]
	if conn == nil || conn.IsClosed() {
		var err error
		if conn, err = pgx.Connect(ctx, url); err != nil {
			return &connectError{fmt.Errorf("connect to %s: %w", redact(url), err)}
		}
		adminConns[url] = conn
	}
	_, err := conn.Exec(ctx, sql)
	return err
}

type connectError struct{ error }

func (e *connectError) Unwrap() error { return e.error }

func closeAdminConns() {
	adminMu.Lock()
	defer adminMu.Unlock()
	for url, conn := range adminConns {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn.Close(ctx)
		cancel()
		delete(adminConns, url)
	}
}

func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// The throwaway cluster.

type cluster struct {
	dir    string // temp dir: data/, server.log and the unix socket
	binDir string
	asUser *user.User // non-nil: run the server binaries as this user (we are root)
	url    string
}

var (
	clusterOnce sync.Once
	theCluster  *cluster
	clusterErr  error
)

// findBinDir returns the bin directory of the newest PostgreSQL installed
// under /usr/lib/postgresql.
func findBinDir() (string, error) {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		return "", errors.New("TEST_DATABASE_URL is unset and no server binaries found (/usr/lib/postgresql/*/bin/initdb)")
	}
	version := func(p string) float64 {
		v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(filepath.Dir(p))), 64)
		return v
	}
	sort.Slice(matches, func(i, j int) bool { return version(matches[i]) > version(matches[j]) })
	return filepath.Dir(matches[0]), nil
}

func startCluster() (*cluster, error) {
	start := time.Now()
	binDir, err := findBinDir()
	if err != nil {
		return nil, err
	}
	c := &cluster{binDir: binDir}
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root.
		if c.asUser, err = user.Lookup("postgres"); err != nil {
			return nil, fmt.Errorf("running as root and no postgres user to run the server as: %w", err)
		}
	}
	tmp := "" // os.TempDir()
	if c.asUser != nil {
		tmp = "/tmp" // TMPDIR may not be reachable for the postgres user
	}
	c.reapOrphans(tmp)
	if c.dir, err = os.MkdirTemp(tmp, "testdb-pg-"); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(c.dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(c.dir)
		}
	}()
	if c.asUser != nil {
		uid, _ := strconv.Atoi(c.asUser.Uid)
		gid, _ := strconv.Atoi(c.asUser.Gid)
		if err := os.Chown(c.dir, uid, gid); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(c.dir, "data")

	if out, err := c.run("initdb", "-D", data, "-A", "trust", "-U", "postgres",
		"-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}

	opts := []string{
		"-c listen_addresses=127.0.0.1",
		"-c unix_socket_directories=" + c.dir,
		"-c max_connections=200",
	}
	if os.Getenv("TESTDB_FSYNC") != "on" {
		opts = append(opts, "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off")
	}

	// Another process may take the free port between our probe and the
	// server's bind, so retry with another one.
	var lastErr error
	for attempt := 0; attempt < 10; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		logFile := filepath.Join(c.dir, "server.log")
		out, err := c.run("pg_ctl", "start", "-w", "-t", "60", "-D", data, "-l", logFile,
			"-o", strings.Join(append([]string{"-p " + strconv.Itoa(port)}, opts...), " "))
		if err == nil {
			c.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
			ok = true
			if testing.Verbose() {
				fmt.Fprintf(os.Stderr, "testdb: PostgreSQL (%s) started on port %d in %v\n", binDir, port, time.Since(start).Round(time.Millisecond))
			}
			return c, nil
		}
		logTail, _ := os.ReadFile(logFile)
		lastErr = fmt.Errorf("pg_ctl start on port %d: %w\n%s\n%s", port, err, out, tail(logTail, 2000))
		// A failed start may leave a server behind that pg_ctl gave up on.
		c.run("pg_ctl", "stop", "-D", data, "-m", "immediate")
	}
	return nil, lastErr
}

// run runs a server binary, as the postgres user when we are root.
func (c *cluster) run(name string, args ...string) ([]byte, error) {
	bin := filepath.Join(c.binDir, name)
	var cmd *exec.Cmd
	if c.asUser != nil {
		cmd = exec.Command("runuser", append([]string{"-u", c.asUser.Username, "--", bin}, args...)...)
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Dir = c.dir // the postgres user may not be able to enter our working directory
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.Bytes(), err
}

func stopCluster() {
	closeAdminConns()
	if theCluster == nil {
		return
	}
	c := theCluster
	theCluster = nil
	if out, err := c.run("pg_ctl", "stop", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w"); err != nil {
		fmt.Fprintf(os.Stderr, "testdb: pg_ctl stop: %v\n%s", err, out)
	}
	if err := os.RemoveAll(c.dir); err != nil {
		fmt.Fprintf(os.Stderr, "testdb: remove cluster dir: %v\n", err)
	}
}

// ownerFile in a cluster dir holds the pid of the test process that owns it.
const ownerFile = "owner.pid"

// reapOrphans stops and removes the clusters of test processes that died
// without stopping theirs (killed on timeout, or no TestMain calling Main).
func (c *cluster) reapOrphans(tmp string) {
	if tmp == "" {
		tmp = os.TempDir()
	}
	owners, _ := filepath.Glob(filepath.Join(tmp, "testdb-pg-*", ownerFile))
	for _, owner := range owners {
		b, err := os.ReadFile(owner)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue // alive (or not ours to judge)
		}
		dir := filepath.Dir(owner)
		orphan := &cluster{dir: dir, binDir: c.binDir, asUser: c.asUser}
		orphan.run("pg_ctl", "stop", "-D", filepath.Join(dir, "data"), "-m", "immediate", "-w")
		os.RemoveAll(dir)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
