package test

import (
	"context"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/session"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// The session repository's contract, on both databases: a session comes
// back with its user's id and credential fingerprint; purging removes the
// sessions idle too long and those signed in too long ago, busy or not.
func TestSessionRepositoryContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
		u, err := user.New("sam", user.Operator, user.Credentials{Key: "sealed check of sam's key"})
		if err != nil {
			t.Fatal(err)
		}
		u.Assign(42)
		fresh := session.New("fresh", u, "csrf", now.Add(-time.Hour))
		idle := session.New("idle", u, "csrf", now.Add(-session.IdleTimeout-time.Minute))
		old := session.New("old", u, "csrf", now.Add(-session.MaxLifetime-time.Minute))
		old.Touch(now.Add(-time.Hour))
		write(t, db, func(ctx context.Context, s ports.Store) error {
			for _, v := range []*session.Session{fresh, idle, old} {
				if err := s.Sessions().Add(ctx, v); err != nil {
					return err
				}
			}
			return s.Sessions().Touch(ctx, old)
		})
		get := func(token string) *session.Session {
			t.Helper()
			var got *session.Session
			if err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				got, err = s.Sessions().Get(ctx, session.HashToken(token))
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return got
		}
		got := get("fresh")
		if got == nil || got.UserID() != 42 || got.Credential() != session.Fingerprint(u) || got.CSRFToken() != "csrf" ||
			!got.CreatedAt().Equal(fresh.CreatedAt()) || !got.ValidFor(u, now) {
			t.Fatalf("stored and read back: %+v", got)
		}
		if got := get("old"); got == nil || !got.LastSeen().Equal(now.Add(-time.Hour)) {
			t.Fatalf("the touched session: %+v", got)
		}

		var purged int
		write(t, db, func(ctx context.Context, s ports.Store) (err error) {
			purged, err = s.Sessions().PurgeExpired(ctx, session.IdleSince(now), session.SignedInSince(now))
			return err
		})
		if purged != 2 || get("idle") != nil || get("old") != nil || get("fresh") == nil {
			t.Errorf("purged %d; idle %v, old %v, fresh %v", purged, get("idle") != nil, get("old") != nil, get("fresh") != nil)
		}
	})
}
