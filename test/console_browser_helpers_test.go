package test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"go.uber.org/fx"

	"github.com/shopstock/inventory/bootstrap"
)

// consoleKey is the key of the configured admin in the console tests.
const consoleKey = "console-test-key-0123456789"

// consoleService runs the whole service as the command does (bootstrap's
// fx wiring) on databaseURL and returns its base URL.
func consoleService(t *testing.T, databaseURL string) string {
	t.Helper()
	t.Setenv("INVENTORY_DATABASE_URL", databaseURL)
	t.Setenv("INVENTORY_HTTP_ADDR", freeAddr(t))
	t.Setenv("INVENTORY_API_USER", "admin")
	t.Setenv("INVENTORY_API_KEY", consoleKey)
	t.Setenv("INVENTORY_LOG_LEVEL", "error")
	cfg, err := bootstrap.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	app := fx.New(bootstrap.Options(cfg), fx.NopLogger)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = app.Stop(ctx)
	})
	return "http://" + cfg.HTTPAddr
}

// api calls the JSON API as the configured admin (or as user:key) and
// returns the decoded body; it fails the test on an unexpected status.
type apiClient struct {
	base, user, key string
}

func (c apiClient) do(t testing.TB, method, path string, body any, want int) map[string]any {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(c.user, c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, raw)
	}
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

func (c apiClient) id(t testing.TB, method, path string, body any) int64 {
	t.Helper()
	raw := c.do(t, method, path, body, http.StatusCreated)["data"]
	if list, ok := raw.([]any); ok && len(list) > 0 { // warehouses answer a list
		raw = list[0]
	}
	data, _ := raw.(map[string]any)
	id, ok := data["id"].(float64)
	if !ok {
		t.Fatalf("%s %s: no id in %v", method, path, data)
	}
	return int64(id)
}

// newUser creates an API user in role and returns its key.
func (c apiClient) newUser(t testing.TB, name, role string) string {
	t.Helper()
	data := c.do(t, "POST", "/api/users", map[string]any{"name": name, "role": role}, http.StatusCreated)["data"].(map[string]any)
	return data["key"].(string)
}

// stockOn is the product's stock on the bin with that code (0 when none):
// the sum of its lines in the export, which has one per lot.
func (c apiClient) stockOn(t testing.TB, article int64, bin string) int {
	t.Helper()
	rows := c.csv(t)
	number := c.do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil, http.StatusOK)["data"].(map[string]any)["number"]
	sum := 0
	for _, r := range rows {
		if r[1] == bin && r[2] == number {
			var n int
			fmt.Sscan(r[4], &n)
			sum += n
		}
	}
	return sum
}

// csv is the stock export, split in fields (no quoting in these tests).
func (c apiClient) csv(t testing.TB) [][]string {
	t.Helper()
	req, _ := http.NewRequest("GET", c.base+"/api/stock.csv", nil)
	req.SetBasicAuth(c.user, c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] {
		rows = append(rows, strings.Split(strings.TrimSpace(line), ","))
	}
	return rows
}

// browser drives a headless Chromium and keeps a screenshot of every page
// it shows, in a folder the test names when it fails.
type browser struct {
	t     *testing.T
	ctx   context.Context
	base  string
	shots string
	n     int
}

func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("INVENTORY_REQUIRE_CHROMIUM") != "" || os.Getenv("INVENTORY_REQUIRE_POSTGRES") != "" {
		t.Fatal("no chromium found: install Debian's chromium (apt-get install -y chromium)")
	}
	t.Skip("no chromium found: install Debian's chromium to run the browser tests")
	return ""
}

func newBrowser(t *testing.T, base string) *browser {
	t.Helper()
	exe := chromiumPath(t)
	shots, err := os.MkdirTemp("", "console-screenshots-")
	if err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	b := &browser{t: t, ctx: ctx, base: base, shots: shots}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		if t.Failed() || os.Getenv("INVENTORY_KEEP_SCREENSHOTS") != "" {
			t.Logf("screenshots of every page this test visited: %s", shots)
			return
		}
		os.RemoveAll(shots)
	})
	return b
}

// run runs actions and fails the test on an error.
func (b *browser) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	// A step that waits for an element that never comes fails soon.
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.shot("failed")
		b.t.Fatalf("%s: %v (screenshots in %s)", what, err, b.shots)
	}
}

// shot saves a screenshot of the whole page.
func (b *browser) shot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	b.n++
	file := filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.n, name))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

// visit opens a console path and takes its screenshot.
func (b *browser) visit(path, name string) {
	b.t.Helper()
	b.run("visit "+path, chromedp.Navigate(b.base+path), chromedp.WaitReady(chromedp.CSS("body")))
	b.shot(name)
}

// submit does what submits a form (a click, an Enter) and waits for the
// page that answers, then takes its screenshot.
func (b *browser) submit(name string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	mark := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[chromedp.Void](`window.__before = true`)(ctx, t)
		return err
	})
	wait := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			done, err := chromedp.Evaluate[bool](`window.__before === undefined && document.readyState === "complete"`)(ctx, t)
			if err == nil && done {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	b.run("submit "+name, append(append([]chromedp.Action[chromedp.Void]{mark}, actions...), wait)...)
	b.shot(name)
}

// text is the text of the first element matching sel.
func (b *browser) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.shot("failed")
		b.t.Fatalf("text of %s: %v (screenshots in %s)", sel, err, b.shots)
	}
	return s
}

// evalJS evaluates JavaScript in the page (awaiting a promise it returns).
func evalJS[T any](b *browser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.shot("failed")
		b.t.Fatalf("evaluate %s: %v (screenshots in %s)", js, err, b.shots)
	}
	return v
}

// count is how many elements match sel.
func (b *browser) count(sel string) int {
	b.t.Helper()
	return evalJS[int](b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// fill types into a field, replacing what it held.
func fill(sel, value string) chromedp.Action[chromedp.Void] {
	clear := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).value = ""`, sel))(ctx, t)
		return err
	})
	return chromedp.Steps(chromedp.WaitVisible(chromedp.CSS(sel)), clear, chromedp.SendKeys(chromedp.CSS(sel), value))
}

// click clicks the first element matching sel.
func click(sel string) chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.CSS(sel)) }

// signIn signs in through the sign-in form.
func (b *browser) signIn(user, key string) {
	b.t.Helper()
	b.visit("/console/", "signin")
	b.submit("signed-in",
		fill(`input[name=name]`, user),
		fill(`input[name=key]`, key),
		click(`form[action="/console/signin"] button[type=submit]`),
	)
}

// cookies are the browser's cookies for the service.
func (b *browser) cookies() []*network.Cookie {
	b.t.Helper()
	res, err := chromedp.Call(b.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{b.base + "/console/"}})
	if err != nil {
		b.t.Fatalf("cookies: %v", err)
	}
	return res.Cookies
}
