package session

import (
	"testing"
	"time"
)

var start = time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)

func TestASessionEndsAfterTwelveIdleHours(t *testing.T) {
	s := New("token", "anna", "csrf", start)
	if s.Expired(start.Add(IdleTimeout - time.Second)) {
		t.Error("expired before 12 idle hours")
	}
	if !s.Expired(start.Add(IdleTimeout)) {
		t.Error("still alive after 12 idle hours")
	}
}

func TestUseKeepsASessionAlive(t *testing.T) {
	s := New("token", "anna", "csrf", start)
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

func TestOnlyTheHashOfTheTokenIsKept(t *testing.T) {
	s := New("token", "anna", "csrf", start)
	if s.TokenHash() == "token" || s.TokenHash() != HashToken("token") {
		t.Errorf("token hash %q", s.TokenHash())
	}
}
