package session

import (
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/user"
)

var start = time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)

func anna(t *testing.T) *user.User {
	t.Helper()
	u, err := user.New("anna", user.Reader, user.Credentials{Key: "sealed check of anna's key"})
	if err != nil {
		t.Fatal(err)
	}
	u.Assign(7)
	return u
}

func TestASessionEndsAfterTwelveIdleHours(t *testing.T) {
	s := New("token", anna(t), "csrf", start)
	if s.Expired(start.Add(IdleTimeout - time.Second)) {
		t.Error("expired before 12 idle hours")
	}
	if !s.Expired(start.Add(IdleTimeout)) {
		t.Error("still alive after 12 idle hours")
	}
}

func TestUseKeepsASessionAlive(t *testing.T) {
	s := New("token", anna(t), "csrf", start)
	if s.Touch(start.Add(30 * time.Second)) {
		t.Error("a use within the minute is stored")
	}
	if !s.Touch(start.Add(10 * time.Hour)) {
		t.Error("a use after ten hours is not stored")
	}
	if s.Expired(start.Add(20 * time.Hour)) {
		t.Error("expired 10 hours after its last use")
	}
}

func TestASessionEndsSevenDaysAfterSignInHoweverBusy(t *testing.T) {
	s := New("token", anna(t), "csrf", start)
	now := start
	for now.Before(start.Add(MaxLifetime - time.Hour)) {
		now = now.Add(time.Hour)
		s.Touch(now)
	}
	if s.Expired(start.Add(MaxLifetime - time.Second)) {
		t.Error("expired before 7 days")
	}
	if !s.Expired(start.Add(MaxLifetime)) {
		t.Error("still alive 7 days after sign-in, used an hour ago")
	}
}

func TestASessionBelongsToItsUsersIdAndCurrentKey(t *testing.T) {
	u := anna(t)
	s := New("token", u, "csrf", start)
	if !s.ValidFor(u, start.Add(time.Hour)) {
		t.Fatal("not valid for its own user")
	}
	if s.BelongsTo(nil) {
		t.Error("belongs to a deleted user")
	}

	sameName, _ := user.New("anna", user.Admin, user.Credentials{Key: "sealed check of anna's key"})
	sameName.Assign(8)
	if s.BelongsTo(sameName) {
		t.Error("a user created later under the same name, with the same key, inherits the session")
	}

	rotated := user.UnmarshalFromDatabase(u.ID(), u.Name(), u.Role(), true, u.Credentials())
	rotated.RotateKey(user.Credentials{Key: "sealed check of anna's new key"})
	if s.BelongsTo(rotated) {
		t.Error("the session survives a rotated key")
	}

	disabled := user.UnmarshalFromDatabase(u.ID(), u.Name(), u.Role(), false, u.Credentials())
	if s.BelongsTo(disabled) {
		t.Error("the session serves a disabled user")
	}

	promoted := user.UnmarshalFromDatabase(u.ID(), u.Name(), user.Admin, true, u.Credentials())
	if !s.BelongsTo(promoted) {
		t.Error("a change of role ends the session; the role is read afresh instead")
	}
}

func TestNeitherTheTokenNorTheKeyIsKept(t *testing.T) {
	s := New("token", anna(t), "csrf", start)
	if s.TokenHash() == "token" || s.TokenHash() != HashToken("token") {
		t.Errorf("token hash %q", s.TokenHash())
	}
	if c := anna(t).Credentials(); s.Credential() == c.Key {
		t.Errorf("the credential fingerprint is the stored value itself: %q", s.Credential())
	}
}

func TestDigestOffKeepsTheSessionAndDigestOnEndsIt(t *testing.T) {
	u := anna(t)
	u.RotateKey(user.Credentials{Key: "sealed check", DigestSHA256: "s", DigestMD5: "m"})
	s := New("token", u, "csrf", start)
	off := user.UnmarshalFromDatabase(u.ID(), u.Name(), u.Role(), true, u.Credentials())
	off.DisableDigest()
	if !s.BelongsTo(off) {
		t.Error("turning Digest off leaves the key, and the session")
	}
	on := user.UnmarshalFromDatabase(u.ID(), u.Name(), u.Role(), true, user.Credentials{Key: "sealed check"})
	s = New("token", on, "csrf", start)
	on.RotateKey(user.Credentials{Key: "sealed check of the new key", DigestSHA256: "s", DigestMD5: "m"})
	if s.BelongsTo(on) {
		t.Error("turning Digest on issues a new key, which ends the session")
	}
}
