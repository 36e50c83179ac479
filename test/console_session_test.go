package test

import (
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestConsoleSessions: sign-in checks the key as the API does; a session
// lives in the database (another instance serves it), ends after 12 idle
// hours, 7 days after sign-in or at sign-out, follows its user's role, and
// ends with the user's access and with the key it was opened with.
func TestConsoleSessions(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, db, clock := newUsersApp(t, databaseURL)
		other := application.New(db, clock, apitest.Secrets(t)) // a second instance on the same database

		if token, err := app.SignIn(ctx, "admin", "wrong key"); err != nil || token != "" {
			t.Fatalf("wrong key: token %q, err %v", token, err)
		}
		if token, err := app.SignIn(ctx, "nobody", usersAdminKey); err != nil || token != "" {
			t.Fatalf("unknown user: token %q, err %v", token, err)
		}
		id, key, err := app.CreateUser(ctx, "olga", user.Operator, false)
		if err != nil {
			t.Fatal(err)
		}
		token, err := app.SignIn(ctx, "olga", key)
		if err != nil || token == "" {
			t.Fatalf("sign-in: token %q, err %v", token, err)
		}
		who := func(a *application.App) *application.ConsoleUser {
			t.Helper()
			u, err := a.SessionUser(ctx, token)
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		u := who(other)
		if u == nil || u.Name != "olga" || u.Role != user.Operator || len(u.CSRFToken) < 32 {
			t.Fatalf("the other instance sees %+v", u)
		}
		if who(app).CSRFToken != u.CSRFToken {
			t.Error("the instances disagree on the form token")
		}

		// Used after 11 hours, the session lives 12 more from then.
		clock.Advance(11 * time.Hour)
		if who(app) == nil {
			t.Fatal("ended after 11 hours")
		}
		clock.Advance(11 * time.Hour)
		if who(other) == nil {
			t.Fatal("ended 11 hours after its last use")
		}
		clock.Advance(12 * time.Hour)
		if who(app) != nil {
			t.Fatal("alive after 12 idle hours")
		}

		// A new session follows the role and the access of its user.
		token, _ = app.SignIn(ctx, "olga", key)
		reader := user.Reader
		if err := app.UpdateUser(ctx, id, &reader, nil); err != nil {
			t.Fatal(err)
		}
		if u := who(app); u == nil || u.Role != user.Reader {
			t.Fatalf("after the demotion: %+v", u)
		}
		disabled := false
		if err := app.UpdateUser(ctx, id, nil, &disabled); err != nil {
			t.Fatal(err)
		}
		if who(app) != nil {
			t.Fatal("a disabled user's session still serves")
		}
		if token, _ := app.SignIn(ctx, "olga", key); token != "" {
			t.Fatal("a disabled user signs in")
		}

		// The session is deleted when found ended: enabling the user again
		// does not bring it back.
		enabled := true
		if err := app.UpdateUser(ctx, id, nil, &enabled); err != nil {
			t.Fatal(err)
		}
		if who(app) != nil {
			t.Fatal("a session ended by disabling serves again once the user is enabled")
		}

		// A rotated key ends the sessions the old key opened, on every
		// instance; the new key signs in.
		token, _ = app.SignIn(ctx, "olga", key)
		if who(other) == nil {
			t.Fatal("no session before the rotation")
		}
		newKey, err := app.RotateUserKey(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if who(other) != nil {
			t.Fatal("a session outlives its user's rotated key")
		}
		if token, _ = app.SignIn(ctx, "olga", newKey); token == "" || who(app) == nil {
			t.Fatal("the new key does not sign in")
		}

		// Seven days after its sign-in a session ends, however busy.
		for range 7 * 24 / 6 {
			if who(app) == nil {
				t.Fatal("ended within 7 days of sign-in, used every 6 hours")
			}
			clock.Advance(6 * time.Hour)
		}
		if who(app) != nil {
			t.Fatal("alive 7 days after sign-in")
		}

		// Sign-out ends the session on every instance.
		token, err = app.SignIn(ctx, "admin", usersAdminKey)
		if err != nil || token == "" {
			t.Fatalf("admin sign-in: %q %v", token, err)
		}
		if err := other.SignOut(ctx, token); err != nil {
			t.Fatal(err)
		}
		if who(app) != nil {
			t.Fatal("alive after sign-out")
		}
	})
}

// TestConsoleSessionsOutliveNoUser: a session belongs to the user's id, so
// a user created later under the name of a deleted one inherits nothing,
// whatever their role.
func TestConsoleSessionsOutliveNoUser(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		app, _, _ := newUsersApp(t, databaseURL)
		id, key, err := app.CreateUser(ctx, "rita", user.Reader, false)
		if err != nil {
			t.Fatal(err)
		}
		token, err := app.SignIn(ctx, "rita", key)
		if err != nil || token == "" {
			t.Fatalf("sign-in: %q %v", token, err)
		}
		if err := app.DeleteUser(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, _, err := app.CreateUser(ctx, "rita", user.Admin, false); err != nil {
			t.Fatal(err)
		}
		if u, err := app.SessionUser(ctx, token); err != nil || u != nil {
			t.Fatalf("the deleted reader's session opens the console as %+v (%v)", u, err)
		}
	})
}
