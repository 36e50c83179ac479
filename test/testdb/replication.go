package testdb

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Replicated is a primary and a hot standby streaming from it, both of the
// test's own: replication needs settings and control (pausing the replay,
// stopping the standby) that a shared server does not give. Both are
// throwaway clusters in temp dirs on free ports, stopped and removed when
// the test ends.
type Replicated struct {
	// Primary and Standby are URLs of the database "inventory" on each.
	Primary, Standby string
	primary, standby *cluster
	standbyPort      int
}

// StartReplicated starts the pair: a primary with wal_level=replica, and a
// standby made from it with pg_basebackup -R. Without PostgreSQL's server
// binaries the test is skipped, or fails under INVENTORY_REQUIRE_POSTGRES=1.
func StartReplicated(t testing.TB) *Replicated {
	t.Helper()
	binDir, err := findBinDir()
	if err != nil {
		unavailable(t, err)
	}
	var asUser *user.User
	tmp := ""
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root.
		if asUser, err = user.Lookup("postgres"); err != nil {
			t.Fatalf("testdb: running as root and no postgres user to run the servers as: %v", err)
		}
		tmp = "/tmp"
	}
	newCluster := func() *cluster {
		c := &cluster{binDir: binDir, asUser: asUser}
		c.reapOrphans(tmp)
		if c.dir, err = os.MkdirTemp(tmp, "testdb-pg-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			c.run("pg_ctl", "stop", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w")
			os.RemoveAll(c.dir)
		})
		if err := os.WriteFile(filepath.Join(c.dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			t.Fatal(err)
		}
		if asUser != nil {
			uid, _ := strconv.Atoi(asUser.Uid)
			gid, _ := strconv.Atoi(asUser.Gid)
			if err := os.Chown(c.dir, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	r := &Replicated{primary: newCluster(), standby: newCluster()}
	if out, err := r.primary.run("initdb", "-D", filepath.Join(r.primary.dir, "data"), "-A", "trust", "-U", "postgres",
		"-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		t.Fatalf("testdb: initdb: %v\n%s", err, out)
	}
	primaryPort := r.primary.start(t, "-c wal_level=replica", "-c max_wal_senders=4", "-c fsync=off", "-c synchronous_commit=off")
	r.primary.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", primaryPort)
	execOn(t, r.primary.url, "CREATE DATABASE inventory")
	if out, err := r.standby.run("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(primaryPort), "-U", "postgres",
		"-D", filepath.Join(r.standby.dir, "data"), "-R", "-X", "stream", "-c", "fast", "--no-sync"); err != nil {
		t.Fatalf("testdb: pg_basebackup: %v\n%s", err, out)
	}
	r.standbyPort = r.standby.start(t, "-c hot_standby=on", "-c fsync=off")
	r.standby.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", r.standbyPort)
	r.Primary = strings.Replace(r.primary.url, "/postgres?", "/inventory?", 1)
	r.Standby = strings.Replace(r.standby.url, "/postgres?", "/inventory?", 1)
	return r
}

// start starts the cluster in c.dir/data on a free port, with these
// server options, and tells the port.
func (c *cluster) start(t testing.TB, options ...string) int {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.startOn(port, options...); err != nil {
			lastErr = err
			continue
		}
		return port
	}
	t.Fatalf("testdb: %v", lastErr)
	return 0
}

func (c *cluster) startOn(port int, options ...string) error {
	data, logFile := filepath.Join(c.dir, "data"), filepath.Join(c.dir, "server.log")
	opts := append([]string{"-p " + strconv.Itoa(port), "-c listen_addresses=127.0.0.1", "-c unix_socket_directories=" + c.dir}, options...)
	out, err := c.run("pg_ctl", "start", "-w", "-t", "60", "-D", data, "-l", logFile, "-o", strings.Join(opts, " "))
	if err != nil {
		logTail, _ := os.ReadFile(logFile)
		c.run("pg_ctl", "stop", "-D", data, "-m", "immediate")
		return fmt.Errorf("pg_ctl start on port %d: %w\n%s\n%s", port, err, out, tail(logTail, 2000))
	}
	return nil
}

// PauseReplay stops the standby replaying what it receives
// (pg_wal_replay_pause); it serves what it had until ResumeReplay.
func (r *Replicated) PauseReplay(t testing.TB) { execOn(t, r.Standby, "SELECT pg_wal_replay_pause()") }

// ResumeReplay lets the standby replay again.
func (r *Replicated) ResumeReplay(t testing.TB) {
	execOn(t, r.Standby, "SELECT pg_wal_replay_resume()")
}

// StopStandby stops the standby at once, as a crash would.
func (r *Replicated) StopStandby(t testing.TB) {
	t.Helper()
	if out, err := r.standby.run("pg_ctl", "stop", "-D", filepath.Join(r.standby.dir, "data"), "-m", "immediate", "-w"); err != nil {
		t.Fatalf("testdb: stop the standby: %v\n%s", err, out)
	}
}

// StartStandby starts the stopped standby again, on its port.
func (r *Replicated) StartStandby(t testing.TB) {
	t.Helper()
	if err := r.standby.startOn(r.standbyPort, "-c hot_standby=on", "-c fsync=off"); err != nil {
		t.Fatalf("testdb: start the standby again: %v", err)
	}
}

func execOn(t testing.TB, url, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("testdb: connect to %s: %v", redact(url), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("testdb: %s on %s: %v", sql, redact(url), err)
	}
}

// Settle does on the pair what autovacuum and the checkpoints do to the
// rows of a shop that is running: the primary vacuums and analyses (which
// sets the rows' hint bits and visibility, both replicated), the standby
// replays all of it and takes a restartpoint, after which it may set hint
// bits of its own too. Without it every read of a fresh row on the standby
// looks its transaction's commit up again.
func (r *Replicated) Settle(t testing.TB) {
	t.Helper()
	execOn(t, r.Primary, "VACUUM ANALYZE")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	primary, err := pgx.Connect(ctx, r.Primary)
	if err != nil {
		t.Fatalf("testdb: connect to the primary: %v", err)
	}
	defer primary.Close(ctx)
	var lsn string
	if err := primary.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&lsn); err != nil {
		t.Fatalf("testdb: the primary's position: %v", err)
	}
	standby, err := pgx.Connect(ctx, r.Standby)
	if err != nil {
		t.Fatalf("testdb: connect to the standby: %v", err)
	}
	defer standby.Close(ctx)
	for {
		var replayed bool
		if err := standby.QueryRow(ctx, "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", lsn).Scan(&replayed); err != nil {
			t.Fatalf("testdb: the standby's position: %v", err)
		}
		if replayed {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("testdb: the standby did not replay %s in time", lsn)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := standby.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Fatalf("testdb: a restartpoint on the standby: %v", err)
	}
}
