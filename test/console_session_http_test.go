package test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestConsoleSessionEndsWithItsUser: over HTTP, a session opens the console
// for its user as long as that user exists, is enabled and keeps the key;
// a user created later under the same name is somebody else.
func TestConsoleSessionEndsWithItsUser(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		api := apiClient{base: base, user: "admin", key: consoleKey}
		newUser := func(name, role string) (int64, string) {
			data := api.do(t, "POST", "/api/users", map[string]any{"name": name, "role": role}, http.StatusCreated)["data"].(map[string]any)
			return int64(data["id"].(float64)), data["key"].(string)
		}
		// status is what the page answers the client, without following
		// a redirect to the sign-in.
		status := func(c *consoleClient, path string) int {
			t.Helper()
			c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			defer func() { c.http.CheckRedirect = nil }()
			resp, _ := c.do(must(http.NewRequest("GET", base+path, nil)))
			if resp.StatusCode == http.StatusSeeOther && !strings.HasPrefix(resp.Header.Get("Location"), "/console/signin") {
				t.Fatalf("%s redirects to %s", path, resp.Header.Get("Location"))
			}
			return resp.StatusCode
		}

		// A reader signs in; the reader is deleted and an admin is created
		// under the same name: the reader's cookie opens nothing.
		id, key := newUser("rita", "reader")
		reader := newConsoleClient(t, base)
		reader.signIn("rita", key)
		if got := status(reader, "/console/webhooks"); got != http.StatusForbidden {
			t.Fatalf("a reader's webhooks page: %d, want 403", got)
		}
		api.do(t, "DELETE", fmt.Sprintf("/api/users/%d", id), nil, http.StatusOK)
		newUser("rita", "admin")
		for _, path := range []string{"/console/webhooks", "/console/search"} {
			if got := status(reader, path); got != http.StatusSeeOther {
				t.Errorf("the deleted reader's cookie, %s after the name went to an admin: %d, want 303 to the sign-in", path, got)
			}
		}

		// A rotated key ends the session.
		id, key = newUser("otto", "operator")
		operator := newConsoleClient(t, base)
		operator.signIn("otto", key)
		if got := status(operator, "/console/search"); got != http.StatusOK {
			t.Fatalf("signed in: %d", got)
		}
		api.do(t, "POST", fmt.Sprintf("/api/users/%d/rotateKey", id), nil, http.StatusOK)
		if got := status(operator, "/console/search"); got != http.StatusSeeOther {
			t.Errorf("after the key's rotation: %d, want 303 to the sign-in", got)
		}

		// So does disabling the user, for good.
		id, key = newUser("dora", "operator")
		operator = newConsoleClient(t, base)
		operator.signIn("dora", key)
		api.do(t, "PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"enabled": false}, http.StatusOK)
		if got := status(operator, "/console/search"); got != http.StatusSeeOther {
			t.Errorf("after disabling: %d, want 303 to the sign-in", got)
		}
		api.do(t, "PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"enabled": true}, http.StatusOK)
		if got := status(operator, "/console/search"); got != http.StatusSeeOther {
			t.Errorf("enabled again: %d, want 303 to the sign-in", got)
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestConsoleSignInTokenIsTheServers: the sign-in form's token must be one
// the service issued (any of its instances); a cookie and form field made
// up by another site (a sibling subdomain can set cookies over http) are
// refused, and so is a post the browser marks as coming from another site.
func TestConsoleSignInTokenIsTheServers(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		other := consoleService(t, databaseURL) // a second instance on the same database
		post := func(cookie, csrf string, header ...string) int {
			t.Helper()
			form := url.Values{"csrf": {csrf}, "name": {"admin"}, "key": {consoleKey}}
			req := must(http.NewRequest("POST", base+"/console/signin", strings.NewReader(form.Encode())))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Cookie", cookie)
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		for _, forged := range []string{
			"made-up-by-the-attacker-0123456789abcdef",
			"ATTACKERNONCE0123456789ABCD.bm90IHRoZSBzZXJ2ZXIncyBtYWMgYXQgYWxsLCBubw",
		} {
			if got := post("inventory_console_signin="+forged, forged); got != http.StatusForbidden {
				t.Errorf("a planted token %q: %d, want 403", forged, got)
			}
		}

		c := newConsoleClient(t, base)
		_, page := c.get("/console/signin")
		issued := hidden(t, page, "csrf")
		if got := post("inventory_console_signin="+issued, issued, "Sec-Fetch-Site", "same-site"); got != http.StatusForbidden {
			t.Errorf("from a sibling site with an issued token: %d, want 403", got)
		}
		if got := post("inventory_console_signin="+issued, issued); got != http.StatusSeeOther {
			t.Errorf("with the token the server issued: %d, want 303", got)
		}
		_, page = newConsoleClient(t, other).get("/console/signin")
		issued = hidden(t, page, "csrf")
		if got := post("inventory_console_signin="+issued, issued); got != http.StatusSeeOther {
			t.Errorf("with a token the other instance issued: %d, want 303", got)
		}
	})
}

// TestConsoleCookiesOverHTTPS: over https the console's cookies carry the
// __Host- prefix (Secure, Path=/, no Domain), and a plain-named cookie,
// which anyone on the network or a sibling subdomain can plant, counts for
// nothing there.
func TestConsoleCookiesOverHTTPS(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		// The test client stands for a TLS-terminating proxy on loopback.
		t.Setenv("INVENTORY_TRUSTED_PROXIES", "127.0.0.0/8,::1/128")
		base := consoleService(t, databaseURL)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		send := func(method, path, body, cookie string) *http.Response {
			t.Helper()
			req := must(http.NewRequest(method, base+path, strings.NewReader(body)))
			req.Header.Set("X-Forwarded-Proto", "https")
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if cookie != "" {
				req.Header.Set("Cookie", cookie)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		cookie := func(resp *http.Response, name string) *http.Cookie {
			t.Helper()
			for _, c := range resp.Cookies() {
				if c.Name == name {
					if !c.Secure || c.Path != "/" || c.Domain != "" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
						t.Errorf("%s: Secure %v, Path %q, Domain %q, HttpOnly %v, SameSite %v", name, c.Secure, c.Path, c.Domain, c.HttpOnly, c.SameSite)
					}
					return c
				}
			}
			t.Fatalf("no cookie %s among %v", name, resp.Header.Values("Set-Cookie"))
			return nil
		}

		signin := cookie(send("GET", "/console/signin", "", ""), "__Host-inventory_console_signin")
		form := url.Values{"csrf": {signin.Value}, "name": {"admin"}, "key": {consoleKey}}.Encode()
		if got := send("POST", "/console/signin", form, "inventory_console_signin="+signin.Value).StatusCode; got != http.StatusForbidden {
			t.Errorf("over https with the token in a plain-named cookie: %d, want 403", got)
		}
		resp := send("POST", "/console/signin", form, "__Host-inventory_console_signin="+signin.Value)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in over https: %d", resp.StatusCode)
		}
		sess := cookie(resp, "__Host-inventory_console_session")
		if got := send("GET", "/console/search", "", "__Host-inventory_console_session="+sess.Value).StatusCode; got != http.StatusOK {
			t.Errorf("the search with the prefixed session cookie: %d", got)
		}
		if got := send("GET", "/console/search", "", "inventory_console_session="+sess.Value).StatusCode; got != http.StatusSeeOther {
			t.Errorf("over https with the session in a plain-named cookie: %d, want 303 to the sign-in", got)
		}
	})
}
