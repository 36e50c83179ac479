package testdb

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// PgBouncer returns a postgres:// URL to a fresh, empty database reached
// through PgBouncer in transaction pooling mode: each transaction may run on
// another server connection, so nothing may rely on session state or
// server-side prepared statements. One PgBouncer per test process sits in
// front of the server Postgres uses; it is started lazily from the
// `pgbouncer` binary (Debian's package) and stopped by Main. Without the
// binary the test is skipped, or fails under INVENTORY_REQUIRE_POSTGRES=1.
func PgBouncer(t testing.TB) string {
	t.Helper()
	direct := Postgres(t)
	bouncerOnce.Do(func() { theBouncer, bouncerErr = startBouncer() })
	if bouncerErr != nil {
		unavailable(t, bouncerErr)
	}
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatalf("testdb: parse database URL: %v", err)
	}
	u.Host = theBouncer.addr
	return u.String()
}

// EachWithPgBouncer is Each plus a third subtest, "pgbouncer", on a fresh
// PostgreSQL database reached through PgBouncer in transaction pooling.
func EachWithPgBouncer(t *testing.T, fn func(t *testing.T, databaseURL string)) {
	t.Helper()
	Each(t, fn)
	t.Run("pgbouncer", func(t *testing.T) { fn(t, PgBouncer(t)) })
}

type bouncer struct {
	dir  string
	addr string
	cmd  *exec.Cmd
}

var (
	bouncerOnce sync.Once
	theBouncer  *bouncer
	bouncerErr  error
)

func findPgBouncer() (string, error) {
	if p, err := exec.LookPath("pgbouncer"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no pgbouncer binary (install Debian's pgbouncer package)")
}

func startBouncer() (*bouncer, error) {
	bin, err := findPgBouncer()
	if err != nil {
		return nil, err
	}
	reapOrphanBouncers()
	server, err := serverURL()
	if err != nil {
		return nil, err
	}
	su, err := url.Parse(server)
	if err != nil {
		return nil, err
	}
	var asUser *user.User
	tmp := ""
	if os.Geteuid() == 0 {
		// PgBouncer refuses to run as root.
		if asUser, err = user.Lookup("postgres"); err != nil {
			return nil, fmt.Errorf("running as root and no postgres user to run pgbouncer as: %w", err)
		}
		tmp = "/tmp"
	}
	b := &bouncer{}
	if b.dir, err = os.MkdirTemp(tmp, "testdb-pgbouncer-"); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(b.dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, err
	}
	if asUser != nil {
		uid, _ := strconv.Atoi(asUser.Uid)
		gid, _ := strconv.Atoi(asUser.Gid)
		if err := os.Chown(b.dir, uid, gid); err != nil {
			return nil, err
		}
	}
	host, port := su.Hostname(), su.Port()
	if port == "" {
		port = "5432"
	}
	backend := fmt.Sprintf("host=%s port=%s", host, port)
	if u := su.User; u != nil {
		backend += " user=" + u.Username()
		if pw, ok := u.Password(); ok {
			backend += " password=" + pw
		}
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		b.addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(p))
		conf := strings.Join([]string{
			"[databases]",
			"* = " + backend,
			"[pgbouncer]",
			"listen_addr = 127.0.0.1",
			"listen_port = " + strconv.Itoa(p),
			"unix_socket_dir =",
			"auth_type = any",
			"pool_mode = transaction",
			"max_client_conn = 2000",
			"default_pool_size = 40",
			"max_db_connections = 60",
			"server_reset_query =",
			"ignore_startup_parameters = extra_float_digits",
			"logfile = " + filepath.Join(b.dir, "pgbouncer.log"),
			"pidfile = " + filepath.Join(b.dir, "pgbouncer.pid"),
			"",
		}, "\n")
		confPath := filepath.Join(b.dir, "pgbouncer.ini")
		if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
			return nil, err
		}
		if asUser != nil {
			b.cmd = exec.Command("runuser", "-u", asUser.Username, "--", bin, confPath)
		} else {
			b.cmd = exec.Command(bin, confPath)
		}
		b.cmd.Dir = b.dir
		// Its own process group, so that stopping it reaches pgbouncer
		// behind runuser too.
		b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := b.cmd.Start(); err != nil {
			return nil, fmt.Errorf("start pgbouncer: %w", err)
		}
		exited := make(chan error, 1)
		go func() { exited <- b.cmd.Wait() }()
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			select {
			case err := <-exited:
				logTail, _ := os.ReadFile(filepath.Join(b.dir, "pgbouncer.log"))
				lastErr = fmt.Errorf("pgbouncer exited: %v\n%s", err, tail(logTail, 2000))
			default:
				if c, err := net.DialTimeout("tcp", b.addr, time.Second); err == nil {
					c.Close()
					if testing.Verbose() {
						fmt.Fprintf(os.Stderr, "testdb: PgBouncer (transaction pooling) on %s\n", b.addr)
					}
					return b, nil
				}
				continue
			}
			break
		}
		if lastErr == nil {
			lastErr = errors.New("pgbouncer did not listen within 15 s")
		}
		b.kill()
	}
	os.RemoveAll(b.dir)
	return nil, lastErr
}

func (b *bouncer) kill() {
	if b.cmd != nil && b.cmd.Process != nil {
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
	}
}

func stopBouncer() {
	if theBouncer == nil {
		return
	}
	b := theBouncer
	theBouncer = nil
	b.kill()
	if err := os.RemoveAll(b.dir); err != nil {
		fmt.Fprintf(os.Stderr, "testdb: remove pgbouncer dir: %v\n", err)
	}
}

// reapOrphanBouncers stops the PgBouncers of test processes that died
// without stopping theirs.
func reapOrphanBouncers() {
	for _, tmp := range []string{"/tmp", os.TempDir()} {
		owners, _ := filepath.Glob(filepath.Join(tmp, "testdb-pgbouncer-*", ownerFile))
		for _, owner := range owners {
			raw, err := os.ReadFile(owner)
			if err != nil {
				continue
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
			if err != nil || pid <= 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
				continue
			}
			dir := filepath.Dir(owner)
			if raw, err := os.ReadFile(filepath.Join(dir, "pgbouncer.pid")); err == nil {
				p, err := strconv.Atoi(strings.TrimSpace(string(raw)))
				// Only the pgbouncer that pid file names, not whatever
				// process has its number now.
				if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p)); err == nil && p > 0 && strings.TrimSpace(string(comm)) == "pgbouncer" {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
			}
			os.RemoveAll(dir)
		}
	}
}
