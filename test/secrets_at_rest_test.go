package test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/adapters/secretkey"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/bootstrap"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// dumpTexts reads every column of every row of every table of the
// database, as text.
func dumpTexts(t *testing.T, db *bunstore.DB) []string {
	t.Helper()
	ctx := context.Background()
	var tables []string
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	if db.Postgres() {
		q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
	}
	if err := db.Bun().NewRaw(q).Scan(ctx, &tables); err != nil {
		t.Fatal(err)
	}
	if len(tables) < 10 {
		t.Fatalf("only %d tables: %v", len(tables), tables)
	}
	var out []string
	for _, table := range tables {
		rows, err := db.Bun().QueryContext(ctx, fmt.Sprintf(`SELECT * FROM "%s"`, table))
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				s := fmt.Sprint(v)
				if b, ok := v.([]byte); ok {
					s = string(b)
				}
				out = append(out, table+"."+cols[i]+"="+s)
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// A copy of the database holds no key and no webhook signing secret: both
// are sealed under INVENTORY_SECRET_KEY, which the database does not hold.
func TestTheDatabaseHoldsNoKeyAndNoWebhookSecret(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		keys := []string{apitest.Key}
		for _, body := range []map[string]any{{"name": "shop", "role": "reader"}, {"name": "till", "role": "operator", "digest": true}} {
			res := env.Do(t, http.MethodPost, "/api/users", body)
			if res.Status != http.StatusCreated {
				t.Fatalf("create user: %s", res)
			}
			keys = append(keys, res.JSON(t)["data"].(map[string]any)["key"].(string))
		}
		var secrets []string
		for i := range 2 {
			res := env.Do(t, http.MethodPost, "/api/webhooks", map[string]any{"url": fmt.Sprintf("https://shop.example/hook%d", i), "events": []string{"stock.changed"}})
			if res.Status != http.StatusCreated {
				t.Fatalf("create webhook: %s", res)
			}
			secrets = append(secrets, res.JSON(t)["data"].(map[string]any)["secret"].(string))
		}
		res := env.Do(t, http.MethodPost, "/api/webhooks/1/rotateSecret", nil)
		if res.Status != http.StatusOK {
			t.Fatalf("rotate: %s", res)
		}
		secrets = append(secrets, res.JSON(t)["data"].(map[string]any)["secret"].(string))
		for _, text := range dumpTexts(t, env.DB) {
			if strings.Contains(text, "whsec_") {
				t.Errorf("a webhook secret in the clear: %s", text)
			}
			for _, k := range append(keys, secrets...) {
				if strings.Contains(text, k) || strings.Contains(text, strings.TrimPrefix(k, "whsec_")) {
					t.Errorf("a key or secret in the database: %s", text)
				}
			}
		}
	})
}

// capturingSender records what each delivery was signed with.
type capturingSender struct {
	mu      sync.Mutex
	secrets []string
}

func (s *capturingSender) Send(_ context.Context, r ports.WebhookRequest) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.secrets = append(s.secrets, r.Secret)
	return http.StatusNoContent, nil
}

// A webhook kept from before its secret was sealed keeps working: the next
// start seals it; a rotation of INVENTORY_SECRET_KEY seals it anew; and a
// delivery is signed with the secret the webhook was given all along.
func TestWebhookSecretsAreSealedAtStartAndFollowARotation(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		f := ohSetup(t, databaseURL)
		env := f.env
		id, secret, err := env.App.CreateWebhook(ctx, application.WebhookInput{URL: ptrTo("https://shop.example/hook"), Events: &[]string{"stock.changed"}})
		if err != nil {
			t.Fatal(err)
		}
		f.put(t, f.art1, ohWarehouse(f.main), 2) // while the users' keys open with the first secret
		// As kept before sealing: in the clear.
		if _, err := env.DB.Bun().NewRaw("UPDATE webhooks SET secret = ?, sealed_secret = NULL WHERE id = ?", secret, id).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		first := apitest.Secrets(t)
		if _, err := application.New(env.DB, bootClock{}, first).SealCredentials(ctx); err != nil {
			t.Fatal(err)
		}
		for _, text := range dumpTexts(t, env.DB) {
			if strings.Contains(text, "whsec_") {
				t.Fatalf("the start sealed no secret: %s", text)
			}
		}
		second := secretkey.Generate()
		rotating, err := secretkey.New(mustParse(t, second), mustParse(t, testdb.SecretKey))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := application.New(env.DB, bootClock{}, rotating).SealCredentials(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := application.New(env.DB, bootClock{}, first).SealCredentials(ctx); err == nil {
			t.Fatal("the old secret opens what the rotation sealed")
		}
		app := application.New(env.DB, bootClock{}, apitest.SecretsOf(t, second))
		sender := &capturingSender{}
		d := app.WebhookDispatcher(sender)
		if _, err := d.DispatchOnce(application.WithPrincipal(context.Background(), application.System)); err != nil {
			t.Fatal(err)
		}
		if len(sender.secrets) != 1 || sender.secrets[0] != secret {
			t.Fatalf("deliveries signed with %q, want the webhook's secret", sender.secrets)
		}
	})
}

func mustParse(t *testing.T, s string) []byte {
	t.Helper()
	b, err := secretkey.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The log of a run, at debug level, holds no key and no webhook secret:
// not the configured key, not a key made for a user, not a key typed into
// the name field, not a signing secret.
func TestTheLogOfARunHoldsNoKey(t *testing.T) {
	t.Setenv("INVENTORY_LOG_LEVEL", "debug")
	app, logs, env := startObserved(t, testdb.SQLite(t), startKey, zapcore.DebugLevel)
	secrets := []string{startKey, createUserAs(t, env, map[string]any{"name": "shop", "role": "reader", "digest": true})}
	res := usersAs(t, env, "admin", startKey, http.MethodPost, "/api/webhooks", map[string]any{"url": "https://shop.example/hook", "events": []string{"stock.changed"}})
	if res.Status != http.StatusCreated {
		t.Fatalf("create webhook: %s", res)
	}
	secrets = append(secrets, res.JSON(t)["data"].(map[string]any)["secret"].(string))
	res = usersAs(t, env, "admin", startKey, http.MethodPost, "/api/webhooks/1/rotateSecret", nil)
	secrets = append(secrets, res.JSON(t)["data"].(map[string]any)["secret"].(string))
	usersAs(t, env, startKey, "", http.MethodGet, "/api/warehouses", nil)
	usersAs(t, env, "admin", secrets[1], http.MethodGet, "/api/warehouses", nil)
	c := newConsoleClient(t, env.URL)
	_, page := c.get("/console/signin")
	c.post("/console/signin", url.Values{"csrf": {hidden(t, page, "csrf")}, "name": {secrets[1]}, "key": {startKey}})
	c.signIn("admin", startKey)
	stop(t, app)
	if logs.Len() < 10 {
		t.Fatalf("only %d log entries", logs.Len())
	}
	for _, e := range logs.All() {
		line := fmt.Sprint(e.Message, e.ContextMap())
		for _, s := range secrets {
			if strings.Contains(line, s) || strings.Contains(line, strings.TrimPrefix(s, "whsec_")) {
				t.Errorf("a key or secret in the log: %s", line)
			}
		}
	}
}

// A restart with another INVENTORY_API_KEY leaves the stored user as it
// is and warns that it differs, naming what.
func TestARestartWithAnotherKeyWarnsAndKeepsTheStoredKey(t *testing.T) {
	databaseURL := testdb.SQLite(t)
	start := func(key string) (*fx.App, *observer.ObservedLogs, *apitest.Env) {
		return startObserved(t, databaseURL, key, zapcore.WarnLevel)
	}
	app, logs, _ := start(startKey)
	if n := logs.FilterMessageSnippet("differs").Len(); n != 0 {
		t.Fatalf("the first start warns of a difference: %v", logs.All())
	}
	stop(t, app)
	app, logs, env := start("another-key-0123456789")
	defer stop(t, app)
	warned := logs.FilterMessageSnippet("differs").All()
	if len(warned) != 1 || fmt.Sprint(warned[0].ContextMap()["differs"]) != "[key]" || warned[0].ContextMap()["user"] != "admin" {
		t.Fatalf("warnings: %v", logs.All())
	}
	if basicWithKey(t, env, "admin", startKey) != http.StatusOK || basicWithKey(t, env, "admin", "another-key-0123456789") != http.StatusUnauthorized {
		t.Fatal("the stored key stays, the configured one is not applied")
	}
}

// startObserved starts the service as the command does, on databaseURL
// with INVENTORY_API_KEY set to key, its log kept from level on for the
// test to read.
func startObserved(t *testing.T, databaseURL, key string, level zapcore.Level) (*fx.App, *observer.ObservedLogs, *apitest.Env) {
	t.Helper()
	core, logs := observer.New(level)
	addr := freeAddr(t)
	t.Setenv("INVENTORY_DATABASE_URL", databaseURL)
	t.Setenv("INVENTORY_HTTP_ADDR", addr)
	t.Setenv("INVENTORY_API_KEY", key)
	cfg, err := bootstrap.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	app := fx.New(bootstrap.Options(cfg), fx.Decorate(func(*zap.Logger) *zap.Logger { return zap.New(core) }), fx.NopLogger)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return app, logs, &apitest.Env{URL: "http://" + addr}
}
