package test

import (
	"context"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/testdb"
)

var (
	inventoryBinaryOnce sync.Once
	inventoryBinary     string
	inventoryBinaryErr  error
)

// builtInventory is the command, built once for the test run.
func builtInventory(t *testing.T) string {
	t.Helper()
	inventoryBinaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "inventory-bin-")
		if err != nil {
			inventoryBinaryErr = err
			return
		}
		inventoryBinary = filepath.Join(dir, "inventory")
		out, err := exec.Command("go", "build", "-o", inventoryBinary, "github.com/shopstock/inventory/bootstrap/cmd/inventory").CombinedOutput()
		if err != nil {
			inventoryBinaryErr = err
			inventoryBinary = string(out)
		}
	})
	if inventoryBinaryErr != nil {
		t.Fatalf("build: %v\n%s", inventoryBinaryErr, inventoryBinary)
	}
	return inventoryBinary
}

// runStart runs the command with args in dir, with the environment
// less every INVENTORY_ variable, plus env; it returns the exit code and
// what it wrote to standard error.
func runStart(t *testing.T, dir string, env map[string]string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, builtInventory(t), args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "INVENTORY_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	return code, stderr.String()
}

// postgresOn is the test server's URL base with another user and database.
func postgresOn(t *testing.T, base, user, database string) (string, string) {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(user)
	u.Path = "/" + database
	return u.String(), u.Host
}

// A start that fails on configuration, the database or the secret says
// why in one plain line on standard error, and what to do; it exits
// non-zero and shows no stack and no JSON of the wiring.
func TestAFailedStartSaysWhyInOneLine(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	sqlite := func(dir string) string { return "sqlite:" + filepath.Join(dir, "inventory.db") }
	mistakes := []mistake{
		{"an unknown database URL scheme", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": "mysql://shop@127.0.0.1/shop"}
		}, nil, []string{"INVENTORY_DATABASE_URL", "postgres://", "sqlite:"}},
		{"a malformed PostgreSQL URL", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": "postgres://shop@[::1/shop", "INVENTORY_SECRET_KEY": testdb.SecretKey}
		}, nil, []string{"INVENTORY_DATABASE_URL"}},
		{"PostgreSQL unreachable", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": "postgres://shop@127.0.0.1:1/shop?sslmode=disable&connect_timeout=5", "INVENTORY_SECRET_KEY": testdb.SecretKey}
		}, nil, []string{"INVENTORY_DATABASE_URL", "127.0.0.1:1", "cannot reach PostgreSQL"}},
		{"PostgreSQL without INVENTORY_SECRET_KEY", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": "postgres://shop@127.0.0.1:1/shop"}
		}, nil, []string{"INVENTORY_SECRET_KEY", "head -c 32 /dev/urandom"}},
		{"a malformed secret key", func(dir string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": sqlite(dir), "INVENTORY_SECRET_KEY": "swordfish"}
		}, nil, []string{"INVENTORY_SECRET_KEY", "base64"}},
		{"an invalid listen address", func(dir string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": sqlite(dir), "INVENTORY_HTTP_ADDR": "localhost-8080"}
		}, nil, []string{"INVENTORY_HTTP_ADDR", "host:port"}},
		{"an address in use", func(dir string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": sqlite(dir), "INVENTORY_HTTP_ADDR": busy.Addr().String(), "INVENTORY_SECRET_KEY": testdb.SecretKey}
		}, nil, []string{"INVENTORY_HTTP_ADDR", busy.Addr().String(), "in use"}},
		{"an invalid duration", func(dir string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": sqlite(dir), "INVENTORY_REQUEST_TIMEOUT": "soon"}
		}, nil, []string{"INVENTORY_REQUEST_TIMEOUT", "soon"}},
		{"an invalid log level", func(dir string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": sqlite(dir), "INVENTORY_LOG_LEVEL": "loud"}
		}, nil, []string{"INVENTORY_LOG_LEVEL", "loud"}},
		{"an SQLite path that cannot be written", func(dir string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": "sqlite:" + filepath.Join(dir, "no-such-folder", "inventory.db")}
		}, nil, []string{"INVENTORY_DATABASE_URL", "no-such-folder"}},
		{"a command on an unknown database URL scheme", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": "mysql://shop@127.0.0.1/shop"}
		}, []string{"users", "list"}, []string{"INVENTORY_DATABASE_URL"}},
		{"a command on an unreachable PostgreSQL", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": "postgres://shop@127.0.0.1:1/shop?sslmode=disable", "INVENTORY_SECRET_KEY": testdb.SecretKey}
		}, []string{"migrate"}, []string{"INVENTORY_DATABASE_URL", "cannot reach PostgreSQL"}},
	}
	runMistakes(t, mistakes)
	t.Run("postgres", func(t *testing.T) {
		base := testdb.Postgres(t)
		missing, host := postgresOn(t, base, "postgres", "no_such_shop")
		var mistakes []mistake
		mistakes = append(mistakes, mistake{"a database that does not exist", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": missing, "INVENTORY_SECRET_KEY": testdb.SecretKey}
		}, nil, []string{`the database "no_such_shop" does not exist on ` + host, "createdb no_such_shop", "INVENTORY_DATABASE_URL"}})
		stranger, _ := postgresOn(t, base, "no_such_role", "postgres")
		mistakes = append(mistakes, mistake{"authentication failed", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": stranger, "INVENTORY_SECRET_KEY": testdb.SecretKey}
		}, nil, []string{`"no_such_role"`, host, "INVENTORY_DATABASE_URL"}})
		mistakes = append(mistakes, mistake{"a command on a database that does not exist", func(string) map[string]string {
			return map[string]string{"INVENTORY_DATABASE_URL": missing, "INVENTORY_SECRET_KEY": testdb.SecretKey}
		}, []string{"users", "add", "shop", "--role", "reader"}, []string{`"no_such_shop" does not exist`}})
		runMistakes(t, mistakes)
	})
}

// mistake is one wrong start: its environment in a fresh directory, the
// command's arguments, and what its message must say.
type mistake struct {
	name string
	env  func(dir string) map[string]string
	args []string
	want []string
}

func runMistakes(t *testing.T, mistakes []mistake) {
	for _, m := range mistakes {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			env := m.env(dir)
			if _, ok := env["INVENTORY_HTTP_ADDR"]; !ok {
				env["INVENTORY_HTTP_ADDR"] = freeAddr(t)
			}
			code, stderr := runStart(t, dir, env, m.args...)
			checkStartFailure(t, code, stderr, m.want...)
		})
	}
}

// An SQLite database copied without its key file is refused in one line
// naming the file.
func TestAStartWithoutTheKeyFileSaysWhichInOneLine(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"INVENTORY_DATABASE_URL": "sqlite:" + filepath.Join(dir, "inventory.db"), "INVENTORY_HTTP_ADDR": freeAddr(t)}
	if code, stderr := runStart(t, dir, env, "users", "add", "shop", "--role", "reader"); code != 0 {
		t.Fatalf("users add: %d %s", code, stderr)
	}
	keyFile := filepath.Join(dir, "inventory.db.secret-key")
	if err := os.Remove(keyFile); err != nil {
		t.Fatal(err)
	}
	code, stderr := runStart(t, dir, env)
	checkStartFailure(t, code, stderr, keyFile, "missing")
}

func checkStartFailure(t *testing.T, code int, stderr string, want ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if code == 0 || len(lines) > 3 {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), stderr)
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "inventory: ") {
		t.Errorf("the last line is no plain message: %s", last)
	}
	for _, w := range want {
		if !strings.Contains(last, w) {
			t.Errorf("the message lacks %q: %s", w, last)
		}
	}
	for _, bad := range []string{"goroutine", "reflect.", "dig.", "fx.", `"stacktrace"`, "could not build"} {
		if strings.Contains(stderr, bad) {
			t.Errorf("standard error holds %q:\n%s", bad, stderr)
		}
	}
}
