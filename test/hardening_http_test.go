package test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/adapters/console"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// hardeningHandler is the HTTP adapter on a fresh SQLite database, with its
// log and metrics kept for inspection.
func hardeningHandler(t *testing.T) (*httpapi.Handler, *observer.ObservedLogs, *prometheus.Registry) {
	t.Helper()
	db, err := bunstore.Open(testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	app := application.New(db, bootClock{}, apitest.Secrets(t))
	if _, err := app.EnsureAPIUser(apitest.Admin(), apitest.User, apitest.Key); err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zapcore.DebugLevel)
	reg := prometheus.NewRegistry()
	h, err := httpapi.NewHandler(app, zap.New(core), httpapi.Config{}, db.Ping, reg)
	if err != nil {
		t.Fatal(err)
	}
	con, err := console.New(app, zap.New(core), console.Config{HTTPS: h.IsHTTPS, Guard: h})
	if err != nil {
		t.Fatal(err)
	}
	h.Mount(console.Prefix, con)
	return h, logs, reg
}

// A key typed into the user-name field, of Basic or of the console's
// sign-in, never reaches the log: a name is logged only when such a user
// exists, any other as a short hash.
func TestAKeyTypedAsTheUserNameIsNotLogged(t *testing.T) {
	h, logs, _ := hardeningHandler(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	env := &apitest.Env{URL: srv.URL}
	if res := usersAs(t, env, apitest.Key, "", http.MethodGet, "/api/warehouses", nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("the key as the name: %s", res)
	}
	if res := usersAs(t, env, apitest.User, "wrong-key-0123456789", http.MethodGet, "/api/warehouses", nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("a wrong key: %s", res)
	}
	c := newConsoleClient(t, srv.URL)
	_, page := c.get("/console/signin")
	c.post("/console/signin", url.Values{"csrf": {hidden(t, page, "csrf")}, "name": {apitest.Key}, "key": {"x"}})
	sum := sha256.Sum256([]byte(apitest.Key))
	short := hex.EncodeToString(sum[:])[:8]
	failures := logs.FilterMessage("authentication failed").All()
	if len(failures) != 3 {
		t.Fatalf("%d failures logged", len(failures))
	}
	for i, want := range []map[string]any{{"user_sha256": short}, {"user": apitest.User}, {"user_sha256": short}} {
		m := failures[i].ContextMap()
		for k, v := range want {
			if m[k] != v {
				t.Errorf("failure %d: %s = %v, want %v (%v)", i, k, m[k], v, m)
			}
		}
		if _, named := m["user"]; named && want["user"] == nil {
			t.Errorf("failure %d names an unknown user: %v", i, m)
		}
	}
	for _, e := range logs.All() {
		if line := fmt.Sprint(e.Message, e.ContextMap()); strings.Contains(line, apitest.Key) {
			t.Fatalf("the key in the log: %s", line)
		}
	}
}

// A client that hangs up before its answer is no failure of the service:
// it is logged without a stack below error level and counted as 499, never
// as a 500.
func TestAClientThatGoesAwayIsNotAnError(t *testing.T) {
	h, logs, reg := hardeningHandler(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodGet, "/api/warehouses", nil).WithContext(ctx)
	req.SetBasicAuth(apitest.User, apitest.Key)
	h.ServeHTTP(httptest.NewRecorder(), req)
	for _, e := range logs.All() {
		if e.Level >= zapcore.WarnLevel {
			t.Errorf("logged at %s: %s %v", e.Level, e.Message, e.ContextMap())
		}
		if e.Stack != "" {
			t.Errorf("logged with a stack: %s", e.Message)
		}
	}
	counted := func(status string) float64 {
		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		n := 0.0
		for _, f := range families {
			if f.GetName() != "inventory_http_requests_total" {
				continue
			}
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "status" && l.GetValue() == status {
						n += m.GetCounter().GetValue()
					}
				}
			}
		}
		return n
	}
	if counted("499") != 1 || counted("500") != 0 {
		t.Fatalf("counted as 499: %v, as 500: %v", counted("499"), counted("500"))
	}
}

// JSON answers tell browsers not to guess another type from their bytes.
func TestJSONAnswersForbidSniffing(t *testing.T) {
	env := apitest.New(t, testdb.SQLite(t))
	for _, path := range []string{"/api/warehouses", "/api/no-such-thing"} {
		res := env.Do(t, http.MethodGet, path, nil)
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", path, got)
		}
	}
}

// The console's pages may not move their base elsewhere: relative links
// and forms stay on the service.
func TestTheConsolePolicyForbidsABase(t *testing.T) {
	base := consoleService(t, testdb.SQLite(t))
	resp, err := http.Get(base + "/console/signin")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "base-uri 'none'") {
		t.Fatalf("Content-Security-Policy: %s", csp)
	}
}

// A notice on a console page is the service's own: a notice cookie that
// another site planted (a sibling subdomain, a plain-http page) is not
// shown, and over https the service's notice cookie has the __Host- prefix.
func TestConsoleNoticesAreTheServicesOwn(t *testing.T) {
	// The test client stands for a TLS-terminating proxy on loopback.
	t.Setenv("INVENTORY_TRUSTED_PROXIES", "127.0.0.0/8,::1/128")
	base := consoleService(t, testdb.SQLite(t))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(https bool, method, path, body string, cookies ...string) (*http.Response, string) {
		t.Helper()
		req := must(http.NewRequest(method, base+path, strings.NewReader(body)))
		if https {
			req.Header.Set("X-Forwarded-Proto", "https")
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if len(cookies) > 0 {
			req.Header.Set("Cookie", strings.Join(cookies, "; "))
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		page, _ := io.ReadAll(resp.Body)
		return resp, string(page)
	}
	cookieOf := func(resp *http.Response, name string) *http.Cookie {
		for _, c := range resp.Cookies() {
			if c.Name == name {
				return c
			}
		}
		return nil
	}
	for _, https := range []bool{false, true} {
		prefix := ""
		if https {
			prefix = "__Host-"
		}
		resp, page := send(https, "GET", "/console/signin", "")
		signin := cookieOf(resp, prefix+"inventory_console_signin")
		form := url.Values{"csrf": {hidden(t, page, "csrf")}, "name": {"admin"}, "key": {consoleKey}}.Encode()
		resp, _ = send(https, "POST", "/console/signin", form, prefix+"inventory_console_signin="+signin.Value)
		sess := cookieOf(resp, prefix+"inventory_console_session")
		if sess == nil {
			t.Fatalf("https %v: no session: %d %v", https, resp.StatusCode, resp.Header.Values("Set-Cookie"))
		}
		session := prefix + "inventory_console_session=" + sess.Value
		planted := prefix + "inventory_console_notice=" + url.QueryEscape("Your account is locked, call 555-0100.")
		if _, page := send(https, "GET", "/console/search", "", session, planted); strings.Contains(page, "555-0100") {
			t.Errorf("https %v: a planted notice is shown", https)
		}
		_, page = send(https, "GET", "/console/search", "", session)
		resp, _ = send(https, "POST", "/console/signout", url.Values{"csrf": {hidden(t, page, "csrf")}}.Encode(), session)
		notice := cookieOf(resp, prefix+"inventory_console_notice")
		if notice == nil {
			t.Fatalf("https %v: no notice cookie: %d %v", https, resp.StatusCode, resp.Header.Values("Set-Cookie"))
		}
		if https && (!notice.Secure || notice.Path != "/") {
			t.Errorf("the notice cookie over https: Secure %v, Path %q", notice.Secure, notice.Path)
		}
		if _, page := send(https, "GET", "/console/signin", "", notice.Name+"="+notice.Value); !strings.Contains(page, "You are signed out.") {
			t.Errorf("https %v: the service's own notice is shown:\n%s", https, page)
		}
	}
}

// A lot number is matched against labels by eye: one that holds a
// bidirectional override, and so displays as another, is refused.
func TestALotNumberRefusesBidirectionalOverrides(t *testing.T) {
	if err := (stock.LotSpec{Number: "L-\u202e01-A"}).Validate("lot"); err == nil || !strings.Contains(err.Error(), code.BidiMessage) {
		t.Fatalf("a lot number with U+202E: %v", err)
	}
	if err := (stock.LotSpec{Number: "L-01-A"}).Validate("lot"); err != nil {
		t.Fatal(err)
	}
}

// Every query parameter and form field follows the text rule at the
// boundary, for the API and the console alike: a NUL byte is a 400 naming
// the parameter, never a 500.
func TestControlCharactersInParametersAreA400NamingThem(t *testing.T) {
	env := apitest.New(t, testdb.SQLite(t))
	for path, name := range map[string]string{
		"/api/stock.csv?warehouse=a%00":                                            "warehouse",
		"/api/warehouses?filter[0][property]=warehouse.code&filter[0][value]=a%00": "filter[0][value]",
		"/api/events?type=a%01":                                                    "type",
		"/api/articleDetails/1?useNumberAsId=%7f":                                  "useNumberAsId",
		"/api/orders?a%00=1":                                                       `a\\x00`,
	} {
		res := env.Do(t, http.MethodGet, path, nil)
		if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), name) ||
			!strings.Contains(string(res.Body), code.ControlMessage) {
			t.Errorf("%s: %s", path, res)
		}
	}

	base := consoleService(t, testdb.SQLite(t))
	c := newConsoleClient(t, base)
	page := c.signIn("admin", consoleKey)
	for path, name := range map[string]string{
		"/console/search?q=a%00":            "q",
		"/console/stock.csv?warehouse=a%00": "warehouse",
		"/console/orders?page=%00":          "page",
	} {
		status, body := c.get(path)
		if status != http.StatusBadRequest || !strings.Contains(body, html.EscapeString(name)) {
			t.Errorf("%s: %d\n%s", path, status, body)
		}
	}
	resp, body := c.post("/console/receiving/1", url.Values{"csrf": {hidden(t, page, "csrf")}, "bin": {"A-01\x00"}, "line": {"1"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "bin") || !strings.Contains(body, code.ControlMessage) {
		t.Errorf("goods-in with a NUL in the bin field: %d\n%s", resp.StatusCode, body)
	}
}
