package lockout

import (
	"fmt"
	"testing"
	"time"
)

var start = time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)

// failFrom records n failures for name from address, one a second from at.
func failFrom(a *Attempts, address, name string, n int, at time.Time) time.Time {
	for i := 0; i < n; i++ {
		if wait := a.Locked(address, name, at); wait != 0 {
			panic(fmt.Sprintf("failure %d from %s as %s is locked for %v", i+1, address, name, wait))
		}
		a.Fail(address, name, at)
		at = at.Add(time.Second)
	}
	return at
}

// sixAddresses fail 100 times for admin within the window: 17, 17, 17, 17,
// 16 and 16 each, so that none reaches the limit of an address.
func sixAddresses(a *Attempts, at time.Time) time.Time {
	return failForAdmin(a, at, 17, 17, 17, 17, 16, 16)
}

// failForAdmin has 10.0.0.1, 10.0.0.2, … fail for admin at at as many times
// as counts say.
func failForAdmin(a *Attempts, at time.Time, counts ...int) time.Time {
	for i, n := range counts {
		for j := 0; j < n; j++ {
			address := fmt.Sprintf("10.0.0.%d", i+1)
			if wait := a.Locked(address, "admin", at); wait != 0 {
				panic(fmt.Sprintf("failure %d from %s is locked for %v", j+1, address, wait))
			}
			a.Fail(address, "admin", at)
		}
	}
	return at
}

func TestThe21stAttemptFromOneAddressIsTheFirstLockedWhateverTheName(t *testing.T) {
	a := New(Contract)
	for i := 1; i <= 20; i++ {
		if wait := a.Locked("192.0.2.7", fmt.Sprintf("guess%d", i), start); wait != 0 {
			t.Fatalf("attempt %d locked for %v", i, wait)
		}
		a.Fail("192.0.2.7", fmt.Sprintf("guess%d", i), start)
	}
	for _, name := range []string{"admin", "guess1", ""} {
		if wait := a.Locked("192.0.2.7", name, start); wait != time.Minute {
			t.Errorf("the 21st attempt as %q waits %v, want a minute", name, wait)
		}
	}
	if wait := a.Locked("192.0.2.8", "admin", start); wait != 0 {
		t.Errorf("another address waits %v", wait)
	}
}

func TestThe101stAttemptForANameFromSeveralAddressesIsTheFirstLocked(t *testing.T) {
	a := New(Contract)
	at := sixAddresses(a, start)
	for i := 1; i <= 6; i++ {
		address := fmt.Sprintf("10.0.0.%d", i)
		if wait := a.Locked(address, "admin", at); wait != time.Minute {
			t.Errorf("the 101st attempt from %s waits %v, want a minute", address, wait)
		}
		if wait := a.Locked(address, "anna", at); wait != 0 {
			t.Errorf("another name from %s waits %v", address, wait)
		}
	}
}

func TestOnlyAddressesThatFailedForALockedNameAreLockedOutOfIt(t *testing.T) {
	a := New(Contract)
	at := sixAddresses(a, start)
	// An address that failed, but for another name, is no part of it.
	a.Fail("10.0.0.8", "anna", at)
	for _, address := range []string{"10.0.0.7", "10.0.0.8"} {
		if wait := a.Locked(address, "admin", at); wait != 0 {
			t.Errorf("%s, without a failure for admin, waits %v", address, wait)
		}
	}
	// Its first failure for the name makes it one of the locked.
	a.Fail("10.0.0.7", "admin", at)
	if wait := a.Locked("10.0.0.7", "admin", at); wait != time.Minute {
		t.Errorf("after its own failure, 10.0.0.7 waits %v", wait)
	}
}

func TestALockedAttemptIsNoFailure(t *testing.T) {
	a := New(Contract)
	failFrom(a, "192.0.2.7", "admin", 20, start)
	last := start.Add(19 * time.Second)
	// Asking, as every locked attempt does, records nothing: the lock ends
	// a minute after the first failure all the same.
	for at := last; at.Before(start.Add(time.Minute)); at = at.Add(time.Second) {
		if wait := a.Locked("192.0.2.7", "admin", at); wait != start.Add(time.Minute).Sub(at) {
			t.Fatalf("at %v waits %v", at.Sub(start), wait)
		}
	}
	if wait := a.Locked("192.0.2.7", "admin", start.Add(time.Minute)); wait != 0 {
		t.Errorf("after the window waits %v", wait)
	}
}

func TestALockEndsWhenTheWindowHasPassed(t *testing.T) {
	a := New(Contract)
	failFrom(a, "192.0.2.7", "guess", 20, start) // at 0 s .. 19 s
	if wait := a.Locked("192.0.2.7", "admin", start.Add(30*time.Second)); wait != 30*time.Second {
		t.Errorf("halfway an address waits %v, want 30s", wait)
	}
	// A minute after the first failure, 19 are left: one more may come.
	if wait := a.Locked("192.0.2.7", "admin", start.Add(time.Minute)); wait != 0 {
		t.Errorf("after the window an address waits %v", wait)
	}
	a.Fail("192.0.2.7", "guess", start.Add(time.Minute))
	if wait := a.Locked("192.0.2.7", "admin", start.Add(time.Minute)); wait != time.Second {
		t.Errorf("after one more failure the address waits %v, want until the second failure leaves", wait)
	}

	b := New(Contract)
	at := sixAddresses(b, start)
	if wait := b.Locked("10.0.0.1", "admin", at.Add(45*time.Second)); wait != 15*time.Second {
		t.Errorf("a locked name waits %v, want 15s", wait)
	}
	if wait := b.Locked("10.0.0.1", "admin", at.Add(time.Minute)); wait != 0 {
		t.Errorf("after the window a name waits %v", wait)
	}
}

func TestANameLockEndsWithTheAddresssOwnFailures(t *testing.T) {
	a := New(Contract)
	// 10.0.0.9 fails once for admin; 30 s later six others fail 99 times,
	// and a seventh, 10.0.0.7, once more: 101 failures.
	a.Fail("10.0.0.9", "admin", start)
	at := failForAdmin(a, start.Add(30*time.Second), 17, 17, 17, 17, 16, 15)
	a.Fail("10.0.0.7", "admin", at)
	if wait := a.Locked("10.0.0.9", "admin", at); wait != 30*time.Second {
		t.Errorf("10.0.0.9 waits %v, want until its own failure leaves the window", wait)
	}
	// Its failure gone, the name still has 100, but none from 10.0.0.9.
	if wait := a.Locked("10.0.0.9", "admin", start.Add(time.Minute)); wait != 0 {
		t.Errorf("after its failure left the window, 10.0.0.9 waits %v", wait)
	}
	if wait := a.Locked("10.0.0.1", "admin", start.Add(time.Minute)); wait != 30*time.Second {
		t.Errorf("10.0.0.1 waits %v, want 30s", wait)
	}
}

func TestAnAttemptWithoutANameCountsForItsAddressOnly(t *testing.T) {
	a := New(Rule{PerName: 1})
	a.Fail("192.0.2.7", "", start)
	if wait := a.Locked("192.0.2.7", "admin", start); wait != 0 {
		t.Errorf("waits %v", wait)
	}
}

func TestQuietKeysAreForgottenAsTheWindowPasses(t *testing.T) {
	a := New(Contract)
	for i := 0; i < 3000; i++ {
		a.Fail(fmt.Sprintf("10.1.%d.%d", i/256, i%256), fmt.Sprintf("user%d", i), start)
	}
	// As many failures a window later push the first ones out: memory
	// follows the failures of the last window, not of all time.
	for i := 0; i < 3000; i++ {
		a.Fail(fmt.Sprintf("10.2.%d.%d", i/256, i%256), fmt.Sprintf("other%d", i), start.Add(time.Minute))
	}
	if len(a.addresses.entries) != 3000 || len(a.names.entries) != 3000 {
		t.Errorf("%d addresses and %d names are kept, want the 3000 of the last window", len(a.addresses.entries), len(a.names.entries))
	}
	if _, ok := a.addresses.entries["10.1.0.0"]; ok {
		t.Error("an address of the window before is kept")
	}
}

func TestAFloodOfAddressesStaysWithinTheBoundAndLocksNobody(t *testing.T) {
	a := New(Rule{MaxTracked: 1000})
	for i := 0; i < 50000; i++ {
		a.Fail(fmt.Sprintf("10.%d.%d.%d", i/65536, i/256%256, i%256), fmt.Sprintf("user%d", i%3000), start)
		if len(a.addresses.entries) > 1000 || len(a.names.entries) > 1000 {
			t.Fatalf("after %d failures %d addresses and %d names are kept", i+1, len(a.addresses.entries), len(a.names.entries))
		}
	}
	if wait := a.Locked("192.0.2.7", "admin", start); wait != 0 {
		t.Errorf("an address without failures waits %v", wait)
	}
}
