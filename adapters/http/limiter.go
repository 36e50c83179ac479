package http

import (
	"sync"
	"time"
)

// attemptLimiter counts failed authentication attempts per key (a user name
// or a client address) in this instance, over a sliding window. A key with
// max failures inside the window is locked until the oldest of them leaves
// it.
type attemptLimiter struct {
	max    int
	window time.Duration

	mu       sync.Mutex
	failures map[string][]time.Time // oldest first, at most max, all within window when last touched
	sweepAt  int
}

func newAttemptLimiter(max int, window time.Duration) *attemptLimiter {
	return &attemptLimiter{max: max, window: window, failures: map[string][]time.Time{}, sweepAt: 1024}
}

// recent drops the failures of key that left the window.
func (l *attemptLimiter) recent(key string, now time.Time) []time.Time {
	fs := l.failures[key]
	i := 0
	for i < len(fs) && now.Sub(fs[i]) >= l.window {
		i++
	}
	if i == len(fs) {
		delete(l.failures, key)
		return nil
	}
	fs = fs[i:]
	l.failures[key] = fs
	return fs
}

// lockedFor tells how long the most locked of keys stays locked; 0: none is.
func (l *attemptLimiter) lockedFor(now time.Time, keys ...string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		if fs := l.recent(k, now); len(fs) >= l.max {
			if d := fs[len(fs)-l.max].Add(l.window).Sub(now); d > wait {
				wait = d
			}
		}
	}
	return wait
}

// fail records a failed attempt for each of keys.
func (l *attemptLimiter) fail(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		fs := append(l.recent(k, now), now)
		if len(fs) > l.max {
			fs = fs[len(fs)-l.max:]
		}
		l.failures[k] = fs
	}
	// Forget quiet keys now and then, so that memory follows the attackers
	// of the last window only.
	if len(l.failures) >= l.sweepAt {
		for k := range l.failures {
			l.recent(k, now)
		}
		l.sweepAt = max(1024, 2*len(l.failures))
	}
}
