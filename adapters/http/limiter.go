package http

import (
	"sync"
	"time"

	"github.com/shopstock/inventory/domain/lockout"
	"github.com/shopstock/inventory/domain/user"
)

// attemptGuard is the instance's one record of failed authentication
// attempts, which the API and the console's sign-in share, so that neither
// is a way around the other's limits.
type attemptGuard struct {
	mu       sync.Mutex
	attempts *lockout.Attempts
}

func newAttemptGuard(rule lockout.Rule) *attemptGuard {
	return &attemptGuard{attempts: lockout.New(rule)}
}

// lockedFor tells how long an attempt from addr as name must wait; 0: it
// may go ahead.
func (g *attemptGuard) lockedFor(now time.Time, addr, name string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.attempts.Locked(addr, attemptName(name), now)
}

// fail records a failed attempt from addr as name.
func (g *attemptGuard) fail(now time.Time, addr, name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.attempts.Fail(addr, attemptName(name), now)
}

// attemptName is the user name an attempt counts against: none when no
// user could have it, so that junk names cost no memory of their own.
func attemptName(name string) string {
	if user.ValidName(name) {
		return name
	}
	return ""
}
