package test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/test/apitest"
)

// usersClock is a clock the test moves: nonces expire and lockout windows
// pass without waiting.
type usersClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *usersClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *usersClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// usersEnv is the service over HTTP with a clock of the test's own and the
// log kept for inspection. Its admin is apitest.User with adminKey.
type usersEnv struct {
	*apitest.Env
	t       *testing.T
	clock   *usersClock
	logs    *observer.ObservedLogs
	handler *httpapi.Handler
}

const usersAdminKey = "admin-key-0123456789abcdef"

func newUsersEnv(t *testing.T, databaseURL string) *usersEnv {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	clock := &usersClock{now: time.Now().UTC()}
	app := application.New(db, clock, apitest.Secrets(t))
	if _, err := app.EnsureAPIUser(apitest.Admin(), apitest.User, usersAdminKey); err != nil {
		t.Fatal(err)
	}
	e := &usersEnv{t: t, clock: clock}
	e.Env = &apitest.Env{App: app, DB: db}
	e.URL, e.handler, e.logs = e.instance(t, db, clock)
	return e
}

// instance starts one more instance of the service on the same database,
// with its own use cases, caches and failed-attempt counts.
func (e *usersEnv) instance(t *testing.T, db *bunstore.DB, clock *usersClock) (string, *httpapi.Handler, *observer.ObservedLogs) {
	core, logs := observer.New(zap.InfoLevel)
	log := zap.New(zapcore.NewTee(core, zaptest.NewLogger(t, zaptest.Level(zap.ErrorLevel)).Core()))
	h, err := httpapi.NewHandler(application.New(db, clock, apitest.Secrets(t)), log, httpapi.Config{Now: clock.Now}, db.Ping, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL, h, logs
}

// second is another instance of the service on the same database.
func (e *usersEnv) second() *apitest.Env {
	url, _, _ := e.instance(e.t, e.DB, e.clock)
	return &apitest.Env{URL: url}
}

// as sends a request with Basic credentials of name and key.
func usersAs(t *testing.T, env *apitest.Env, name, key, method, path string, body any) *apitest.Response {
	t.Helper()
	var rd *strings.Reader
	if body != nil {
		raw, ok := body.(string)
		if !ok {
			b, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			raw = string(b)
		}
		rd = strings.NewReader(raw)
	}
	var req *http.Request
	if rd != nil {
		req, _ = http.NewRequest(method, path, rd)
		req.Header.Set("Content-Type", "application/json")
	} else {
		req, _ = http.NewRequest(method, path, nil)
	}
	if name != "" {
		req.SetBasicAuth(name, key)
	}
	return env.DoRaw(t, req)
}

// addUser creates a user over the API and returns its id and key.
func (e *usersEnv) addUser(name, role string) (int64, string) {
	e.t.Helper()
	return e.addUserWith(map[string]any{"name": name, "role": role})
}

// addDigestUser creates a user that may use Digest and returns its id and
// key.
func (e *usersEnv) addDigestUser(name, role string) (int64, string) {
	e.t.Helper()
	return e.addUserWith(map[string]any{"name": name, "role": role, "digest": true})
}

func (e *usersEnv) addUserWith(body map[string]any) (int64, string) {
	e.t.Helper()
	name := body["name"]
	res := usersAs(e.t, e.Env, apitest.User, usersAdminKey, http.MethodPost, "/api/users", body)
	if res.Status != http.StatusCreated {
		e.t.Fatalf("create %v: %s", name, res)
	}
	var b struct {
		Data struct {
			ID       int64  `json:"id"`
			Location string `json:"location"`
			Key      string `json:"key"`
		} `json:"data"`
	}
	res.Decode(e.t, &b)
	return b.Data.ID, b.Data.Key
}

func usersMessage(t *testing.T, res *apitest.Response) string {
	t.Helper()
	m, _ := res.JSON(t)["message"].(string)
	return m
}

// roleUsers gives the environment a user of each role, named prefix-role
// (the admin is apitest's), and returns their names and keys.
func (e *usersEnv) roleUsers(prefix string) (names, keys map[user.Role]string) {
	keys = map[user.Role]string{user.Admin: usersAdminKey}
	names = map[user.Role]string{user.Admin: apitest.User}
	for _, r := range []user.Role{user.Operator, user.Reader} {
		names[r] = prefix + "-" + string(r)
		_, keys[r] = e.addUser(names[r], string(r))
	}
	return names, keys
}
