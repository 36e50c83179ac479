package test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The command line, end to end: the binary is built and run as an operator
// would, on both databases.

func buildInventory(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "inventory")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/shopstock/inventory/bootstrap/cmd/inventory").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type cliResult struct {
	code           int
	stdout, stderr string
}

// lastLine is the last line of standard output.
func (r cliResult) lastLine() string {
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	return lines[len(lines)-1]
}

func runInventory(t *testing.T, bin string, env []string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return cliResult{code, stdout.String(), stderr.String()}
}

func TestCommandLine(t *testing.T) {
	bin := buildInventory(t)
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := []string{"INVENTORY_DATABASE_URL=" + databaseURL, "INVENTORY_API_KEY=", "INVENTORY_LOG_LEVEL=warn"}
		run := func(want int, args ...string) cliResult {
			t.Helper()
			r := runInventory(t, bin, env, args...)
			if r.code != want {
				t.Fatalf("inventory %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
			}
			return r
		}

		if r := run(0, "migrate"); !strings.Contains(r.stdout, "up to date") {
			t.Fatalf("migrate: %q", r.stdout)
		}
		run(0, "migrate") // again: nothing to do, still fine
		admin := run(0, "users", "add", "root", "--role", "admin").lastLine()
		op := run(0, "users", "add", "--role=operator", "warehouse-app").lastLine()
		if len(admin) < 32 || len(op) < 32 || strings.ContainsAny(op, " \t") {
			t.Fatalf("the key alone is the last line: %q %q", admin, op)
		}
		if r := run(1, "users", "add", "root", "--role", "reader"); !strings.Contains(r.stderr, "already exists") {
			t.Fatalf("a taken name: %q", r.stderr)
		}
		if r := run(1, "users", "add", "bad name", "--role", "reader"); !strings.Contains(r.stderr, "name") {
			t.Fatalf("a bad name: %q", r.stderr)
		}
		list := run(0, "users", "list").stdout
		for _, want := range []string{"NAME", "root", "admin", "warehouse-app", "operator", "true"} {
			if !strings.Contains(list, want) {
				t.Fatalf("list lacks %q:\n%s", want, list)
			}
		}
		if strings.Contains(list, admin) || strings.Contains(list, op) {
			t.Fatal("list shows a key")
		}

		rotated := run(0, "users", "rotate", "warehouse-app").lastLine()
		if rotated == op || len(rotated) < 32 {
			t.Fatalf("rotate: %q", rotated)
		}
		if r := run(1, "users", "rotate", "nobody"); !strings.Contains(r.stderr, "not found") {
			t.Fatalf("rotate an unknown user: %q", r.stderr)
		}
		checkKeys(t, databaseURL, map[string]bool{"root " + admin: true, "warehouse-app " + op: false, "warehouse-app " + rotated: true})

		// Digest: with --digest at add, or turned on by rotate --digest
		// (a new key); list tells who has it.
		dora := run(0, "users", "add", "dora", "--role", "reader", "--digest").lastLine()
		checkDigestKeys(t, databaseURL, map[string]bool{"dora " + dora: true, "warehouse-app " + rotated: false})
		if !regexp.MustCompile(`(?m)^\d+\s+dora\s+reader\s+true\s+true\s*$`).MatchString(run(0, "users", "list").stdout) {
			t.Fatalf("list shows dora's Digest:\n%s", run(0, "users", "list").stdout)
		}
		withDigest := run(0, "users", "rotate", "warehouse-app", "--digest").lastLine()
		checkDigestKeys(t, databaseURL, map[string]bool{"warehouse-app " + withDigest: true, "warehouse-app " + rotated: false})
		checkKeys(t, databaseURL, map[string]bool{"warehouse-app " + withDigest: true, "warehouse-app " + rotated: false})
		rotated = withDigest

		if r := run(1, "users", "remove", "root"); !strings.Contains(r.stderr, "last enabled admin") {
			t.Fatalf("the last admin: %q", r.stderr)
		}
		run(0, "users", "remove", "warehouse-app")
		if strings.Contains(run(0, "users", "list").stdout, "warehouse-app") {
			t.Fatal("a removed user is not listed")
		}

		// Usage errors: 2, with the usage text.
		for _, args := range [][]string{
			{"frobnicate"}, {"users"}, {"users", "add", "x"}, {"users", "add", "x", "--role", "root"},
			{"users", "add", "x", "--role"}, {"users", "list", "extra"}, {"users", "rotate"},
			{"users", "remove", "a", "b"}, {"users", "promote", "x"}, {"users", "add", "x", "--role", "admin", "--force"},
			{"migrate", "now"}, {"serve", "extra"}, {"users", "remove", "x", "--digest"}, {"users", "list", "--digest"},
		} {
			if r := run(2, args...); !strings.Contains(r.stderr, "Usage:") {
				t.Errorf("inventory %v: no usage text: %q", args, r.stderr)
			}
		}
		if r := run(0, "help"); !strings.Contains(r.stdout, "inventory users add NAME --role ROLE") {
			t.Fatalf("help: %q", r.stdout)
		}

		// A malformed secret stops every command, and so does none on
		// PostgreSQL.
		bad := [][]string{append(slices.Clone(env), "INVENTORY_SECRET_KEY=too-short")}
		if !strings.HasPrefix(databaseURL, "sqlite:") {
			bad = append(bad, append(slices.Clone(env), "INVENTORY_SECRET_KEY="))
		}
		for _, e := range bad {
			if r := runInventory(t, bin, e, "users", "list"); r.code != 1 || !strings.Contains(r.stderr, "INVENTORY_SECRET_KEY") {
				t.Fatalf("users list with %s: %d %q", e[len(e)-1], r.code, r.stderr)
			}
		}

		// A short configured key stops every command, the start included.
		short := append(env, "INVENTORY_API_KEY=short")
		for _, args := range [][]string{{}, {"serve"}, {"users", "list"}} {
			r := runInventory(t, bin, short, args...)
			if r.code != 1 || !strings.Contains(r.stderr, "INVENTORY_API_KEY: want at least 16 characters") {
				t.Fatalf("inventory %v with a short key: %d %q", args, r.code, r.stderr)
			}
		}
	})
}

// checkKeys tells, per "name key", whether the key must authenticate.
func checkKeys(t *testing.T, databaseURL string, want map[string]bool) {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	app := application.New(db, bootClock{}, apitest.Secrets(t))
	for pair, ok := range want {
		name, key, _ := strings.Cut(pair, " ")
		p, err := app.Authenticate(context.Background(), name, key)
		if err != nil || (p != nil) != ok {
			t.Errorf("%s with its key: authenticated %v, want %v (%v)", name, p != nil, ok, err)
		}
	}
}

// checkDigestKeys tells, per "name key", whether Digest with the key must
// authenticate.
func checkDigestKeys(t *testing.T, databaseURL string, want map[string]bool) {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	app := application.New(db, bootClock{}, apitest.Secrets(t))
	for pair, ok := range want {
		name, key, _ := strings.Cut(pair, " ")
		nonce, err := app.DigestNonce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		d := user.DigestRequest{Algorithm: user.DigestSHA256, Method: "GET", URI: "/api/warehouses", Nonce: nonce, NC: "00000001", CNonce: "c"}
		d.Response = d.Expected(user.DigestHA1(d.Algorithm, name, key))
		out, err := app.AuthenticateDigest(context.Background(), name, d)
		if err != nil || (out.Principal != nil) != ok {
			t.Errorf("%s with its key over Digest: authenticated %v, want %v (%v)", name, out.Principal != nil, ok, err)
		}
	}
}

// Plain `inventory` serves until SIGTERM; a user added from the command
// line can call it, with Basic and with curl --digest.
func TestTheBinaryServes(t *testing.T) {
	bin := buildInventory(t)
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		addr := freeAddr(t)
		env := []string{"INVENTORY_DATABASE_URL=" + databaseURL, "INVENTORY_HTTP_ADDR=" + addr,
			"INVENTORY_API_KEY=serve-key-0123456789", "INVENTORY_LOG_LEVEL=warn"}
		key := runInventory(t, bin, env, "users", "add", "storefront", "--role", "reader", "--digest").lastLine()
		plain := runInventory(t, bin, env, "users", "add", "backoffice", "--role", "reader").lastLine()

		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		t.Cleanup(func() {
			if cmd.ProcessState == nil {
				_ = cmd.Process.Kill()
				<-done
			}
		})
		base := "http://" + addr
		deadline := time.Now().Add(30 * time.Second)
		for {
			res, err := http.Get(base + "/healthz")
			if err == nil {
				res.Body.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the service did not start: %s", stderr.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
		for userinfo, want := range map[string]int{"storefront:" + key: 200, "admin:serve-key-0123456789": 200, "storefront:nope": 401} {
			req, _ := http.NewRequest(http.MethodGet, base+"/api/warehouses", nil)
			name, k, _ := strings.Cut(userinfo, ":")
			req.SetBasicAuth(name, k)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != want {
				t.Fatalf("Basic %s: %d, want %d", name, res.StatusCode, want)
			}
		}
		out, err := exec.Command("curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--digest", "-u", "storefront:"+key, base+"/api/warehouses").Output()
		if err != nil || string(out) != "200" {
			t.Fatalf("curl --digest: %s %v", out, err)
		}
		out, err = exec.Command("curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--digest", "-u", "backoffice:"+plain, base+"/api/warehouses").Output()
		if err != nil || string(out) != "401" {
			t.Fatalf("curl --digest as a user added without --digest: %s %v", out, err)
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("after SIGTERM: %v\n%s", err, stderr.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the service did not stop on SIGTERM")
		}
	})
}
