package test

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// consoleClient is a browser without JavaScript: a cookie jar and forms.
type consoleClient struct {
	t    *testing.T
	base string
	http *http.Client
}

func newConsoleClient(t *testing.T, base string) *consoleClient {
	jar, _ := cookiejar.New(nil)
	return &consoleClient{t: t, base: base, http: &http.Client{Jar: jar}}
}

// get returns the status and page at path (following redirects).
func (c *consoleClient) get(path string) (int, string) {
	c.t.Helper()
	resp, err := c.http.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// post sends a form and returns the status and page of the answer.
func (c *consoleClient) post(path string, form url.Values, header ...string) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return c.do(req)
}

func (c *consoleClient) do(req *http.Request) (*http.Response, string) {
	c.t.Helper()
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// hidden is the value of the first hidden field named name on page.
func hidden(t *testing.T, page, name string) string {
	t.Helper()
	m := regexp.MustCompile(`<input type="hidden" name="` + name + `" value="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no hidden field %s on the page:\n%s", name, page)
	}
	return html.UnescapeString(m[1])
}

func (c *consoleClient) signIn(name, key string) string {
	c.t.Helper()
	_, page := c.get("/console/signin")
	resp, page := c.post("/console/signin", url.Values{"csrf": {hidden(c.t, page, "csrf")}, "name": {name}, "key": {key}})
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Find anything") {
		c.t.Fatalf("sign-in: %d\n%s", resp.StatusCode, page)
	}
	return page
}

// TestConsoleCookiesAndSignInLimits: the session cookie's attributes over
// http (over https: TestConsoleCookiesOverHTTPS), and failed sign-ins
// counting against the API's limit.
func TestConsoleCookiesAndSignInLimits(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		c := newConsoleClient(t, base)
		_, page := c.get("/console/signin")
		token := hidden(t, page, "csrf")
		c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, _ := c.post("/console/signin", url.Values{"csrf": {token}, "name": {"admin"}, "key": {consoleKey}})
		c.http.CheckRedirect = nil
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in: %d", resp.StatusCode)
		}
		var cookie string
		for _, v := range resp.Header.Values("Set-Cookie") {
			if strings.HasPrefix(v, "inventory_console_session=") {
				cookie = v
			}
		}
		if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") || strings.Contains(cookie, "Secure") || !strings.Contains(cookie, "Path=/console/") {
			t.Errorf("session cookie over http: %s", cookie)
		}

		// Wrong keys count like failed API authentications: the 21st
		// attempt within the window is refused even with the right key.
		c = newConsoleClient(t, base)
		_, page = c.get("/console/signin")
		token = hidden(t, page, "csrf")
		for i := 1; i <= 20; i++ {
			resp, page := c.post("/console/signin", url.Values{"csrf": {token}, "name": {"admin"}, "key": {"wrong"}})
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(page, "do not match") {
				t.Fatalf("attempt %d: %d", i, resp.StatusCode)
			}
		}
		resp, page = c.post("/console/signin", url.Values{"csrf": {token}, "name": {"admin"}, "key": {consoleKey}})
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(page, "Too many failed sign-ins") {
			t.Errorf("after 20 failures: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		req, _ := http.NewRequest("GET", base+"/api/warehouses", nil)
		req.SetBasicAuth("admin", consoleKey)
		if resp, _ := c.do(req); resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("the API after 20 failed console sign-ins: %d, want 429", resp.StatusCode)
		}
	})
}

// TestConsoleStockImportAndExport: the console downloads the export, shows
// what an import would do before applying it, applies it once when sent
// twice, and shows a rejected import's lines.
func TestConsoleStockImportAndExport(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		key := f.api.newUser(t, "olga", "operator")
		c := newConsoleClient(t, base)
		c.signIn("olga", key)
		_, page := c.get("/console/stock")
		csrf := hidden(t, page, "csrf")

		upload := func(mode, content string) (int, string) {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			mw.WriteField("csrf", csrf)
			mw.WriteField("mode", mode)
			fw, _ := mw.CreateFormFile("file", "stock.csv")
			fw.Write([]byte(content))
			mw.Close()
			req, _ := http.NewRequest("POST", base+"/console/stock/preview", &body)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			resp, page := c.do(req)
			return resp.StatusCode, page
		}
		file := "warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,A-01,SKU-100,7\nMAIN,A-02,SKU-200,3\n"
		status, page := upload("change", file)
		if status != http.StatusOK || !strings.Contains(page, "All 2 lines would apply") {
			t.Fatalf("preview: %d\n%s", status, page)
		}
		if got := f.api.stockOn(t, f.product, "A-01"); got != 0 {
			t.Fatalf("the preview changed stock: %d", got)
		}
		apply := url.Values{"csrf": {csrf}, "key": {hidden(t, page, "key")}, "mode": {"change"}, "csv": {file}}
		for i, want := range []string{"Imported 2 lines.", "applied once"} {
			resp, page := c.post("/console/stock/import", apply)
			if resp.StatusCode != http.StatusOK || !strings.Contains(page, want) {
				t.Errorf("apply %d: %d, want %q\n%s", i+1, resp.StatusCode, want, page)
			}
		}
		if got := f.api.stockOn(t, f.product, "A-01"); got != 7 {
			t.Errorf("A-01 holds %d after the import sent twice, want 7", got)
		}

		bad := "warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,A-01,SKU-100,-100\nMAIN,Z-9,SKU-100,1\nMAIN,A-01,NOPE,1\n"
		status, page = upload("change", bad)
		if status != http.StatusOK || !strings.Contains(page, "3 of 3 lines would fail") || strings.Contains(page, "Apply import") {
			t.Errorf("preview of a failing file: %d\n%s", status, page)
		}
		for _, msg := range []string{"Not enough stock", "Z-9", "NOPE"} {
			if !strings.Contains(html.UnescapeString(page), msg) {
				t.Errorf("the preview does not say %q", msg)
			}
		}
		status, page = upload("change", "nonsense\n")
		if status != http.StatusBadRequest || !strings.Contains(page, "the first line must be the header") {
			t.Errorf("a file without the header: %d", status)
		}

		status, page = c.get("/console/stock.csv?warehouse=MAIN")
		if status != http.StatusOK || !strings.HasPrefix(page, "warehouseCode,binLocationCode,articleDetailNumber,articleDetailId,") ||
			!strings.Contains(page, "MAIN,A-01,SKU-100,") {
			t.Errorf("export: %d\n%s", status, page)
		}
	})
}
