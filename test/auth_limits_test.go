package test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Section L, Authentication: failed attempts per user name and per client
// address, in one instance.

// attempt sends a request from addr straight to the handler, so that the
// test can speak from many client addresses.
func (e *usersEnv) attempt(addr, name, key string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "/api/warehouses", nil)
	req.RemoteAddr = addr + ":40000"
	if name != "" {
		req.SetBasicAuth(name, key)
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	return rec
}

func TestFailedAttemptsLockAUserName(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		_, shopKey := e.addUser("shop", "reader")
		_, otherKey := e.addUser("other", "reader")
		// 20 wrong keys for shop, each from an address of its own.
		for i := 1; i <= 20; i++ {
			if rec := e.attempt(fmt.Sprintf("10.0.0.%d", i), "shop", "wrong-key-0123456789"); rec.Code != http.StatusUnauthorized {
				t.Fatalf("attempt %d: %d", i, rec.Code)
			}
		}
		// The 21st attempt is the first 429, even with the right key.
		rec := e.attempt("10.0.1.1", "shop", shopKey)
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "60" ||
			!strings.Contains(rec.Body.String(), `"success":false`) {
			t.Fatalf("the 21st attempt: %d %v %s", rec.Code, rec.Header(), rec.Body)
		}
		// Other users from the same address are unaffected.
		if rec := e.attempt("10.0.1.1", "other", otherKey); rec.Code != http.StatusOK {
			t.Fatalf("another user: %d %s", rec.Code, rec.Body)
		}
		e.clock.Advance(30 * time.Second)
		if rec := e.attempt("10.0.1.2", "shop", shopKey); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "30" {
			t.Fatalf("still locked halfway: %d %v", rec.Code, rec.Header())
		}
		e.clock.Advance(30 * time.Second)
		if rec := e.attempt("10.0.1.2", "shop", shopKey); rec.Code != http.StatusOK {
			t.Fatalf("after the window the right key works again: %d %s", rec.Code, rec.Body)
		}
	})
}

func TestFailedAttemptsLockAClientAddress(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		// Requests without credentials are no attempts.
		for i := 0; i < 30; i++ {
			if rec := e.attempt("192.0.2.7", "", ""); rec.Code != http.StatusUnauthorized {
				t.Fatalf("without credentials: %d", rec.Code)
			}
		}
		// 20 guesses of user names from one address, a NUL among them.
		for i := 1; i <= 20; i++ {
			name := fmt.Sprintf("guess%d", i)
			if i == 1 {
				name = "\x00"
			}
			if rec := e.attempt("192.0.2.7", name, "whatever"); rec.Code != http.StatusUnauthorized {
				t.Fatalf("guess %d: %d", i, rec.Code)
			}
		}
		if rec := e.attempt("192.0.2.7", apitest.User, usersAdminKey); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
			t.Fatalf("the address is locked, even for right credentials: %d", rec.Code)
		}
		if rec := e.attempt("192.0.2.8", apitest.User, usersAdminKey); rec.Code != http.StatusOK {
			t.Fatalf("another address is unaffected: %d %s", rec.Code, rec.Body)
		}
		e.clock.Advance(time.Minute)
		if rec := e.attempt("192.0.2.7", apitest.User, usersAdminKey); rec.Code != http.StatusOK {
			t.Fatalf("after the window: %d", rec.Code)
		}

		// Failed attempts are logged at warn with name, address and
		// request id; never the key or the header.
		failures := e.logs.FilterMessage("authentication failed").All()
		if len(failures) != 20 {
			t.Fatalf("%d failures logged", len(failures))
		}
		for _, f := range failures {
			m := f.ContextMap()
			if f.Level.String() != "warn" || m["client"] != "192.0.2.7" || m["request_id"] == "" || m["user"] == nil {
				t.Fatalf("failure log: %v %v", f.Level, m)
			}
		}
		for _, entry := range e.logs.All() {
			line := fmt.Sprint(entry.Message, entry.ContextMap())
			if strings.Contains(line, "whatever") || strings.Contains(line, usersAdminKey) || strings.Contains(line, "Basic ") {
				t.Fatalf("a key or header in the log: %s", line)
			}
		}
	})
}

// Control characters in Basic credentials are a 401, and never reach the
// database (bun inlines values, and a NUL would cut the statement).
func TestControlCharactersInCredentialsAreA401(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		for _, userinfo := range []string{"\x00:\x00", "ad\x00min:" + usersAdminKey, "admin\x01:x", "a\nb:c", "\x7f:x",
			strings.Repeat("n", 65) + ":x", "admin' OR '1'='1:x"} {
			req, _ := http.NewRequest(http.MethodGet, "/api/warehouses", nil)
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(userinfo)))
			if res := e.DoRaw(t, req); res.Status != http.StatusUnauthorized {
				t.Errorf("%q: %s", userinfo, res)
			}
		}
		req, _ := http.NewRequest(http.MethodGet, "/api/warehouses", nil)
		req.Header.Set("Authorization", "Basic ADoA")
		if res := e.DoRaw(t, req); res.Status != http.StatusUnauthorized {
			t.Errorf("Basic ADoA: %s", res)
		}
		// Go's client refuses to send control characters in a header; the
		// handler gets them directly.
		raw := httptest.NewRequest(http.MethodGet, "/api/warehouses", nil)
		raw.Header.Set("Authorization", `Digest username="a`+"\x01"+`b", realm="Inventory REST-API", nonce="x", uri="/api/warehouses", qop=auth, nc=00000001, cnonce="c", response="00000000000000000000000000000000"`)
		rec := httptest.NewRecorder()
		e.handler.ServeHTTP(rec, raw)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("Digest with a control character: %d %s", rec.Code, rec.Body)
		}
	})
}
