package test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Users and roles driven through the use cases, on both databases.

func newUsersApp(t *testing.T, databaseURL string) (*application.App, *bunstore.DB, *usersClock) {
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
	if _, err := app.EnsureAPIUser(apitest.Admin(), "admin", usersAdminKey); err != nil {
		t.Fatal(err)
	}
	return app, db, clock
}

func ptrTo[T any](v T) *T { return &v }

func TestUsersUseCases(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, db, _ := newUsersApp(t, databaseURL)

		admin, err := app.UserByName(ctx, "admin")
		if err != nil || admin.Role() != user.Admin || !admin.Enabled() {
			t.Fatalf("the configured user is an enabled admin: %v %+v", err, admin)
		}
		id, key, err := app.CreateUser(ctx, "shop.front-1", user.Operator, false)
		if err != nil || id <= 0 || len(key) < 32 {
			t.Fatalf("create: %d %q %v", id, key, err)
		}
		if p, err := app.Authenticate(ctx, "shop.front-1", key); err != nil || p == nil || p.Role != user.Operator {
			t.Fatalf("the new key works: %+v %v", p, err)
		}
		var stored []string
		if err := db.Bun().NewSelect().Table("api_users").ColumnExpr("key_hash || ':' || digest_sha256 || ':' || digest_md5").
			Where("name = ?", "shop.front-1").Scan(ctx, &stored); err != nil || len(stored) != 1 || strings.Contains(stored[0], key) {
			t.Fatalf("only hashes are stored: %v %v", stored, err)
		}

		for _, tc := range []struct {
			name     string
			role     user.Role
			property string
		}{
			{"shop.front-1", user.Reader, "name"}, {"bad name", user.Reader, "name"},
			{strings.Repeat("n", 65), user.Reader, "name"}, {"", user.Reader, "name"}, {"x", "root", "role"},
		} {
			_, _, err := app.CreateUser(ctx, tc.name, tc.role, false)
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.Invalid || len(e.Fields) != 1 || e.Fields[0].Property != tc.property {
				t.Errorf("create %q %q: want invalid %s, got %v", tc.name, tc.role, tc.property, err)
			}
		}

		if _, _, err := app.CreateUser(ctx, "reader", user.Reader, false); err != nil {
			t.Fatal(err)
		}
		page, err := app.Users(ctx, ports.ListQuery{Limit: 10, Filters: []ports.Filter{
			{Property: "user.role", Expression: "=", Values: []any{"operator"}}}})
		if err != nil || page.Total != 1 || page.Items[0].Name() != "shop.front-1" {
			t.Fatalf("list by role: %+v %v", page, err)
		}

		if err := app.UpdateUser(ctx, id, ptrTo(user.Reader), nil); err != nil {
			t.Fatal(err)
		}
		if p, _ := app.Authenticate(ctx, "shop.front-1", key); p == nil || p.Role != user.Reader {
			t.Fatalf("a new role counts from the next request: %+v", p)
		}
		if err := app.UpdateUser(ctx, id, nil, ptrTo(false)); err != nil {
			t.Fatal(err)
		}
		if p, _ := app.Authenticate(ctx, "shop.front-1", key); p != nil {
			t.Fatal("a disabled user does not authenticate, even with its key")
		}
		if err := app.UpdateUser(ctx, id, ptrTo(user.Role("root")), ptrTo(true)); errs.KindOf(err) != errs.Invalid {
			t.Fatalf("unknown role: %v", err)
		}
		if u, _ := app.User(ctx, id); u.Enabled() {
			t.Fatal("a refused update changes nothing")
		}
		if err := app.UpdateUser(ctx, id, nil, ptrTo(true)); err != nil {
			t.Fatal(err)
		}

		newKey, err := app.RotateUserKey(ctx, id)
		if err != nil || newKey == key || len(newKey) < 32 {
			t.Fatalf("rotate: %q %v", newKey, err)
		}
		if p, _ := app.Authenticate(ctx, "shop.front-1", key); p != nil {
			t.Fatal("the old key fails after rotation")
		}
		if p, _ := app.Authenticate(ctx, "shop.front-1", newKey); p == nil {
			t.Fatal("the new key works after rotation")
		}

		if err := app.DeleteUser(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := app.User(ctx, id); errs.KindOf(err) != errs.NotFound {
			t.Fatalf("a deleted user is gone: %v", err)
		}
		for name, err := range map[string]error{
			"delete": app.DeleteUser(ctx, id), "update": app.UpdateUser(ctx, id, nil, ptrTo(true)),
		} {
			if errs.KindOf(err) != errs.NotFound {
				t.Errorf("%s an unknown user: %v", name, err)
			}
		}
		if _, err := app.RotateUserKey(ctx, id); errs.KindOf(err) != errs.NotFound {
			t.Errorf("rotate an unknown user: %v", err)
		}
		if _, err := app.UserByName(ctx, "nobody"); errs.KindOf(err) != errs.NotFound {
			t.Errorf("an unknown name: %v", err)
		}
	})
}

func TestTheLastEnabledAdminIsProtected(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, _, _ := newUsersApp(t, databaseURL)
		admin, _ := app.UserByName(ctx, "admin")
		for name, err := range map[string]error{
			"demoted":  app.UpdateUser(ctx, admin.ID(), ptrTo(user.Operator), nil),
			"disabled": app.UpdateUser(ctx, admin.ID(), nil, ptrTo(false)),
			"deleted":  app.DeleteUser(ctx, admin.ID()),
		} {
			if err != user.ErrLastAdmin {
				t.Errorf("the last admin %s: %v", name, err)
			}
		}
		// A disabled admin is no admin to fall back on.
		offID, _, _ := app.CreateUser(ctx, "off", user.Admin, false)
		if err := app.UpdateUser(ctx, offID, nil, ptrTo(false)); err != nil {
			t.Fatal(err)
		}
		if err := app.DeleteUser(ctx, admin.ID()); err != user.ErrLastAdmin {
			t.Errorf("a disabled admin does not count: %v", err)
		}
		if err := app.UpdateUser(ctx, offID, nil, ptrTo(true)); err != nil {
			t.Fatal(err)
		}
		if err := app.UpdateUser(ctx, admin.ID(), ptrTo(user.Reader), nil); err != nil {
			t.Fatalf("with another enabled admin one may be demoted: %v", err)
		}
		if err := app.DeleteUser(ctx, offID); err != user.ErrLastAdmin {
			t.Errorf("now the other one is the last: %v", err)
		}
		if err := app.DeleteUser(ctx, admin.ID()); err != nil {
			t.Errorf("a reader can go: %v", err)
		}
	})
}

// Two admins demoting each other at the same time: one of them must stay.
func TestConcurrentDemotionsLeaveAnAdmin(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, _, _ := newUsersApp(t, databaseURL)
		for round := 0; round < 5; round++ {
			page, _ := app.Users(ctx, ports.ListQuery{Limit: 100, Filters: []ports.Filter{
				{Property: "user.role", Expression: "=", Values: []any{"admin"}}}})
			a := page.Items[0].ID()
			b, _, err := app.CreateUser(ctx, "admin"+string(rune('a'+round)), user.Admin, false)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			results := make([]error, 2)
			for i, id := range []int64{a, b} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i == 0 {
						results[i] = app.UpdateUser(ctx, id, ptrTo(user.Reader), nil)
					} else {
						results[i] = app.DeleteUser(ctx, id)
					}
				}()
			}
			wg.Wait()
			failed := 0
			for _, err := range results {
				if err == user.ErrLastAdmin {
					failed++
				} else if err != nil {
					t.Fatal(err)
				}
			}
			left, _ := app.Users(ctx, ports.ListQuery{Limit: 100, Filters: []ports.Filter{
				{Property: "user.role", Expression: "=", Values: []any{"admin"}}}})
			if failed != 1 || left.Total != 1 {
				t.Fatalf("round %d: %d refused, %d admins left: %v", round, failed, left.Total, results)
			}
		}
	})
}

// INVENTORY_API_KEY creates the configured user and nothing more: a restart
// with it neither re-enables nor re-keys an admin that another admin
// disabled, demoted or rotated; it tells what the stored user has that the
// configuration does not say, for the start to warn of.
func TestTheConfiguredKeyOnlyCreatesTheUser(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, _, _ := newUsersApp(t, databaseURL)
		if _, _, err := app.CreateUser(ctx, "ops", user.Admin, false); err != nil {
			t.Fatal(err)
		}
		same, err := app.EnsureAPIUser(ctx, "admin", usersAdminKey)
		if err != nil || len(same.Differs) != 0 || same.GeneratedKey != "" {
			t.Fatalf("a restart with what the database holds changes nothing and tells nothing: %+v %v", same, err)
		}
		admin, _ := app.UserByName(ctx, "admin")
		rotated, err := app.RotateUserKey(ctx, admin.ID())
		if err != nil {
			t.Fatal(err)
		}
		if err := app.UpdateUser(ctx, admin.ID(), ptrTo(user.Reader), ptrTo(false)); err != nil {
			t.Fatal(err)
		}
		got, err := app.EnsureAPIUser(ctx, "admin", usersAdminKey)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got.Differs, ",") != "key,role,enabled" {
			t.Fatalf("what differs from the configuration: %q", got.Differs)
		}
		if p, _ := app.Authenticate(ctx, "admin", usersAdminKey); p != nil {
			t.Fatalf("the configured key does not come back: %+v", p)
		}
		after, _ := app.UserByName(ctx, "admin")
		if after.Enabled() || after.Role() != user.Reader || !apitest.Secrets(t).CheckKey("admin", after.Credentials(), rotated) {
			t.Fatalf("the user stays as the other admin left it: enabled %v, role %s", after.Enabled(), after.Role())
		}
	})
}

// Nonce counts are kept per nonce and user: two users may each start at
// count 1 under one nonce, and each one's replay still fails.
func TestDigestNonceCountsArePerUser(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, _, _ := newUsersApp(t, databaseURL)
		keys := map[string]string{}
		for _, name := range []string{"shop", "till"} {
			_, key, err := app.CreateUser(ctx, name, user.Reader, true)
			if err != nil {
				t.Fatal(err)
			}
			keys[name] = key
		}
		nonce, err := app.DigestNonce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		use := func(name, nc string) application.DigestOutcome {
			d := user.DigestRequest{Algorithm: user.DigestSHA256, Method: "GET", URI: "/api/warehouses", Nonce: nonce, NC: nc, CNonce: "abc"}
			d.Response = d.Expected(user.DigestHA1(user.DigestSHA256, name, keys[name]))
			out, err := app.AuthenticateDigest(ctx, name, d)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		for _, name := range []string{"shop", "till"} {
			if out := use(name, "00000001"); out.Principal == nil || out.Principal.Name != name {
				t.Fatalf("%s, count 1 under a nonce another user used: %+v", name, out)
			}
		}
		for _, name := range []string{"shop", "till"} {
			if out := use(name, "00000001"); out.Principal != nil || !out.Replayed {
				t.Fatalf("%s replays count 1: %+v", name, out)
			}
		}
		if out := use("till", "00000002"); out.Principal == nil {
			t.Fatalf("till, count 2: %+v", out)
		}
		if out := use("shop", "00000002"); out.Principal == nil {
			t.Fatalf("shop, count 2 after till used it: %+v", out)
		}
	})
}

// Digest through the use case: the right response, a replayed count, a
// stale nonce, a forged nonce.
func TestDigestUseCase(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, _, clock := newUsersApp(t, databaseURL)
		_, key, _ := app.CreateUser(ctx, "shop", user.Reader, true)
		nonce, err := app.DigestNonce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		req := func(alg user.DigestAlgorithm, nonce, nc, key string) user.DigestRequest {
			d := user.DigestRequest{Algorithm: alg, Method: "GET", URI: "/api/warehouses", Nonce: nonce, NC: nc, CNonce: "abc"}
			d.Response = d.Expected(user.DigestHA1(alg, "shop", key))
			return d
		}
		for _, alg := range user.DigestAlgorithms {
			nonce, _ := app.DigestNonce(ctx)
			out, err := app.AuthenticateDigest(ctx, "shop", req(alg, nonce, "00000001", key))
			if err != nil || out.Principal == nil || out.Principal.Role != user.Reader {
				t.Fatalf("%s: %+v %v", alg, out, err)
			}
			if out, _ := app.AuthenticateDigest(ctx, "shop", req(alg, nonce, "00000001", key)); out.Principal != nil || !out.Replayed {
				t.Fatalf("%s: a replayed count fails: %+v", alg, out)
			}
			if out, _ := app.AuthenticateDigest(ctx, "shop", req(alg, nonce, "00000002", key)); out.Principal == nil {
				t.Fatalf("%s: the next count works: %+v", alg, out)
			}
			if out, _ := app.AuthenticateDigest(ctx, "shop", req(alg, nonce, "00000003", "wrong-key-0123456789")); out.Principal != nil || out.Stale {
				t.Fatalf("%s: a wrong key fails: %+v", alg, out)
			}
		}
		forged := []byte(nonce)
		forged[3] ^= 1
		if out, _ := app.AuthenticateDigest(ctx, "shop", req(user.DigestSHA256, string(forged), "00000001", key)); out.Principal != nil {
			t.Fatal("a nonce the service did not issue fails")
		}
		clock.Advance(application.DigestNonceLifetime + time.Second)
		if out, _ := app.AuthenticateDigest(ctx, "shop", req(user.DigestSHA256, nonce, "00000001", key)); out.Principal != nil || !out.Stale {
			t.Fatalf("an expired nonce is stale: %+v", out)
		}
		if out, _ := app.AuthenticateDigest(ctx, "shop", req(user.DigestSHA256, nonce, "00000001", "wrong-key-0123456789")); out.Stale {
			t.Fatal("only a client that knows the key learns that a nonce is stale")
		}
	})
}
