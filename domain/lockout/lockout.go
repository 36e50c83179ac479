// Package lockout holds the rule of failed authentication attempts: too many
// failures from one client address lock that address, and too many failures
// for one user name lock that name, but only for the addresses that took part
// in them, so that nobody can lock an admin out from elsewhere.
package lockout

import "time"

// Rule is how many failures the lockout allows and how long it remembers
// them.
type Rule struct {
	// PerAddress is how many failed attempts one client address may make
	// within Window; the next attempt from it is locked, whatever the name.
	PerAddress int
	// PerName is how many failed attempts one user name may have within
	// Window, from any addresses; the next attempt for it is locked from
	// every address that failed for it within Window.
	PerName int
	// Window is how long a failure counts.
	Window time.Duration
	// MaxTracked bounds the addresses, and separately the names, whose
	// failures are kept (see Attempts.Fail for what happens at the bound).
	MaxTracked int
}

// Contract is the rule of the contract: 20 failures a minute per address,
// 100 per name. MaxTracked keeps the memory of a flood within some tens of
// megabytes: an address keeps at most 20 failures and a name 100.
var Contract = Rule{PerAddress: 20, PerName: 100, Window: time.Minute, MaxTracked: 10000}

// failure is one failed attempt: when, and, in an address's log, for which
// user name.
type failure struct {
	at   time.Time
	name string
}

// log holds the recent failures of each key (an address or a name), oldest
// first, at most keep of them.
type log struct {
	keep    int
	entries map[string][]failure
	// sweepAt is the number of keys at which the quiet ones are forgotten.
	sweepAt int
}

// Attempts records the failed attempts of one instance and tells which
// attempts are locked. It is not safe for concurrent use: the adapter that
// shares it guards it.
type Attempts struct {
	rule      Rule
	addresses log
	names     log
}

// New starts an empty record under rule; a zero field of rule takes the
// contract's value.
func New(rule Rule) *Attempts {
	if rule.PerAddress <= 0 {
		rule.PerAddress = Contract.PerAddress
	}
	if rule.PerName <= 0 {
		rule.PerName = Contract.PerName
	}
	if rule.Window <= 0 {
		rule.Window = Contract.Window
	}
	if rule.MaxTracked <= 0 {
		rule.MaxTracked = Contract.MaxTracked
	}
	sweepAt := min(1024, rule.MaxTracked)
	return &Attempts{
		rule:      rule,
		addresses: log{keep: rule.PerAddress, entries: map[string][]failure{}, sweepAt: sweepAt},
		names:     log{keep: rule.PerName, entries: map[string][]failure{}, sweepAt: sweepAt},
	}
}

// Locked tells how long an attempt from address as name must wait (the
// Retry-After), 0 when it may go ahead. name is "" when the attempt names no
// one who could be a user; then only the address counts.
//
// The address is locked while it has PerAddress failures within the window.
// The name is locked for this address while the name has PerName failures
// within the window and this address has one of them; it ends when either
// is no longer so. An address without a failure for the name is never
// locked by the name's count.
func (a *Attempts) Locked(address, name string, now time.Time) time.Duration {
	var wait time.Duration
	fromAddress := a.addresses.recent(address, now, a.rule.Window)
	if n := len(fromAddress); n >= a.rule.PerAddress {
		wait = fromAddress[n-a.rule.PerAddress].at.Add(a.rule.Window).Sub(now)
	}
	if name == "" {
		return wait
	}
	forName := a.names.recent(name, now, a.rule.Window)
	n := len(forName)
	if n < a.rule.PerName {
		return wait
	}
	// An address keeps all its failures of the window unless it is locked
	// itself, so its own failures for the name are all here.
	for i := len(fromAddress) - 1; i >= 0; i-- {
		if fromAddress[i].name != name {
			continue
		}
		// Whichever leaves the window first ends the lock: the name's
		// PerName-th last failure, or this address's last one for it.
		first := forName[n-a.rule.PerName].at
		if own := fromAddress[i].at; own.Before(first) {
			first = own
		}
		return max(wait, first.Add(a.rule.Window).Sub(now))
	}
	return wait
}

// Fail records a failed attempt from address as name ("" for no name a
// user could have) at now. An attempt answered as locked is no failure and
// is not recorded.
//
// At MaxTracked addresses (or names), the keys whose failures all left the
// window are forgotten first; if that does not free a quarter of the room,
// keys picked at random are forgotten until it does. A flood of fresh
// addresses can thus make an instance forget some failures, so that an
// address or name gets more attempts than the rule allows, but it can never
// lock anybody out, and memory stays bounded.
func (a *Attempts) Fail(address, name string, now time.Time) {
	a.addresses.add(address, failure{at: now, name: name}, now, a.rule)
	if name != "" {
		a.names.add(name, failure{at: now}, now, a.rule)
	}
}

// recent drops the failures of key that left the window and returns the
// rest.
func (l *log) recent(key string, now time.Time, window time.Duration) []failure {
	fs, ok := l.entries[key]
	if !ok {
		return nil
	}
	i := 0
	for i < len(fs) && now.Sub(fs[i].at) >= window {
		i++
	}
	if i == len(fs) {
		delete(l.entries, key)
		return nil
	}
	fs = fs[i:]
	l.entries[key] = fs
	return fs
}

func (l *log) add(key string, f failure, now time.Time, rule Rule) {
	fs := l.recent(key, now, rule.Window)
	if fs == nil && len(l.entries) >= l.sweepAt {
		l.sweep(now, rule)
	}
	fs = append(fs, f)
	if len(fs) > l.keep {
		fs = fs[len(fs)-l.keep:]
	}
	l.entries[key] = fs
}

// sweep forgets the keys without a failure in the window, and at the bound
// random keys too, so that memory follows the last window and never passes
// MaxTracked keys.
func (l *log) sweep(now time.Time, rule Rule) {
	for k := range l.entries {
		l.recent(k, now, rule.Window)
	}
	if len(l.entries) >= rule.MaxTracked {
		room := rule.MaxTracked - rule.MaxTracked/4
		for k := range l.entries { // Go's map order: random
			if len(l.entries) < room {
				break
			}
			delete(l.entries, k)
		}
	}
	l.sweepAt = min(rule.MaxTracked, max(1024, 2*len(l.entries)))
}
