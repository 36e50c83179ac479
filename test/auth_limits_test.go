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

// Failed sign-in attempts are counted per client address, and per user name
// for the addresses that made them, in one instance: a guesser is slowed
// down, yet nobody can lock an admin out from elsewhere.

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

// locked tells whether rec is the 429 of a lockout, waiting wait seconds.
func locked(rec *httptest.ResponseRecorder, wait string) bool {
	return rec.Code == http.StatusTooManyRequests && rec.Header().Get("Retry-After") == wait &&
		strings.Contains(rec.Body.String(), `"success":false`)
}

func TestFailedAttemptsForANameLockOnlyTheAddressesThatMadeThem(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		_, otherKey := e.addUser("other", "reader")
		// 100 wrong keys for the admin's name from six addresses, none of
		// which reaches the limit of an address.
		six := []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"}
		for i, n := range []int{17, 17, 17, 17, 16, 16} {
			for j := 1; j <= n; j++ {
				if rec := e.attempt(six[i], apitest.User, "wrong-key-0123456789"); rec.Code != http.StatusUnauthorized {
					t.Fatalf("failure %d from %s: %d %s", j, six[i], rec.Code, rec.Body)
				}
			}
		}
		// The admin, from an address without a failure, signs in.
		if rec := e.attempt("10.0.0.7", apitest.User, usersAdminKey); rec.Code != http.StatusOK {
			t.Fatalf("the right key from a seventh address: %d %s", rec.Code, rec.Body)
		}
		// From each of the six, the 101st attempt is the first 429, even
		// with the right key; another name from there is unaffected.
		for _, addr := range six {
			if rec := e.attempt(addr, apitest.User, usersAdminKey); !locked(rec, "60") {
				t.Fatalf("the right key from %s: %d %v %s", addr, rec.Code, rec.Header(), rec.Body)
			}
		}
		if rec := e.attempt(six[0], "other", otherKey); rec.Code != http.StatusOK {
			t.Fatalf("another user from %s: %d %s", six[0], rec.Code, rec.Body)
		}
		// A failure of its own makes the seventh address one of them.
		if rec := e.attempt("10.0.0.7", apitest.User, "wrong-key-0123456789"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("a wrong key from the seventh address: %d", rec.Code)
		}
		if rec := e.attempt("10.0.0.7", apitest.User, usersAdminKey); !locked(rec, "60") {
			t.Fatalf("the right key from the seventh address after its failure: %d %v", rec.Code, rec.Header())
		}
		// A 429 is no failure: 100 more wrong keys from the six halfway do
		// not keep the name locked longer.
		e.clock.Advance(30 * time.Second)
		for i := 0; i < 100; i++ {
			if rec := e.attempt(six[i%6], apitest.User, "wrong-key-0123456789"); !locked(rec, "30") {
				t.Fatalf("still locked halfway: %d %v", rec.Code, rec.Header())
			}
		}
		e.clock.Advance(30 * time.Second)
		if rec := e.attempt(six[1], apitest.User, usersAdminKey); rec.Code != http.StatusOK {
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
		// 20 guesses of user names from one address, a NUL among them, and
		// halfway a success, which resets nothing.
		for i := 1; i <= 20; i++ {
			name := fmt.Sprintf("guess%d", i)
			if i == 1 {
				name = "\x00"
			}
			if rec := e.attempt("192.0.2.7", name, "whatever"); rec.Code != http.StatusUnauthorized {
				t.Fatalf("guess %d: %d", i, rec.Code)
			}
			if i == 10 {
				if rec := e.attempt("192.0.2.7", apitest.User, usersAdminKey); rec.Code != http.StatusOK {
					t.Fatalf("the right key after 10 failures: %d %s", rec.Code, rec.Body)
				}
			}
		}
		// After 20 failures the next attempt is a 429, whatever the name,
		// even with the right key.
		if rec := e.attempt("192.0.2.7", apitest.User, usersAdminKey); !locked(rec, "60") {
			t.Fatalf("the address is locked, even for right credentials: %d %v", rec.Code, rec.Header())
		}
		if rec := e.attempt("192.0.2.8", apitest.User, usersAdminKey); rec.Code != http.StatusOK {
			t.Fatalf("another address is unaffected: %d %s", rec.Code, rec.Body)
		}
		// A 429 is no failure: 20 more wrong keys halfway do not keep the
		// address locked longer.
		e.clock.Advance(30 * time.Second)
		for i := 21; i <= 40; i++ {
			if rec := e.attempt("192.0.2.7", fmt.Sprintf("guess%d", i), "whatever"); !locked(rec, "30") {
				t.Fatalf("halfway: %d %v", rec.Code, rec.Header())
			}
		}
		e.clock.Advance(30 * time.Second)
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
			if f.Level.String() != "warn" || m["client"] != "192.0.2.7" || m["request_id"] == "" || m["user_sha256"] == nil {
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
