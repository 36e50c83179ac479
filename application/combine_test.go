package application

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// While a group runs, the calls that arrive queue and make the next group;
// each gets its own verdict, and one told to run alone runs alone.
func TestCombinerGroupsTheCallsThatArriveMeanwhile(t *testing.T) {
	const later = 5
	var c *combiner[int]
	var mu sync.Mutex
	var groups [][]int
	var alone []int
	c = newCombiner(100, func(reqs []int) []verdict {
		mu.Lock()
		first := len(groups) == 0
		groups = append(groups, slices.Clone(reqs))
		mu.Unlock()
		if first {
			waitFor(t, func() bool {
				c.mu.Lock()
				defer c.mu.Unlock()
				return len(c.queue) == later
			})
		}
		out := make([]verdict, len(reqs))
		for i, r := range reqs {
			switch {
			case r == 3:
				out[i].alone = true
			case r%2 == 0:
				out[i].err = fmt.Errorf("even %d", r)
			}
		}
		return out
	}, func(r int) error {
		mu.Lock()
		alone = append(alone, r)
		mu.Unlock()
		return errors.New("alone")
	})

	got := make([]error, later+1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); got[0] = c.do(0) }()
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(groups) == 1 })
	for r := 1; r <= later; r++ {
		wg.Add(1)
		go func() { defer wg.Done(); got[r] = c.do(r) }()
	}
	wg.Wait()

	if len(groups) != 2 || !slices.Equal(groups[0], []int{0}) || len(groups[1]) != later {
		t.Fatalf("groups %v, want [0] and then the %d others", groups, later)
	}
	if !slices.Equal(alone, []int{3}) {
		t.Errorf("ran alone %v, want [3]", alone)
	}
	for r, err := range got {
		want := ""
		switch {
		case r == 3:
			want = "alone"
		case r%2 == 0:
			want = fmt.Sprintf("even %d", r)
		}
		if fmt.Sprint(err) != want && !(want == "" && err == nil) {
			t.Errorf("call %d: %v, want %q", r, err, want)
		}
	}
	if c.leading || len(c.queue) != 0 {
		t.Errorf("after the calls: leading %v, %d queued", c.leading, len(c.queue))
	}
}

// A group holds at most max requests; the rest make the next.
func TestCombinerGroupsAtMostMax(t *testing.T) {
	var c *combiner[int]
	var mu sync.Mutex
	var sizes []int
	release := make(chan struct{})
	c = newCombiner(2, func(reqs []int) []verdict {
		mu.Lock()
		sizes = append(sizes, len(reqs))
		first := len(sizes) == 1
		mu.Unlock()
		if first {
			<-release
		}
		return make([]verdict, len(reqs))
	}, func(int) error { return nil })
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = c.do(0) }()
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(sizes) == 1 })
	for r := 1; r <= 5; r++ {
		wg.Add(1)
		go func() { defer wg.Done(); _ = c.do(r) }()
	}
	waitFor(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return len(c.queue) == 5 })
	close(release)
	wg.Wait()
	if !slices.Equal(sizes, []int{1, 2, 2, 1}) {
		t.Errorf("group sizes %v, want [1 2 2 1]", sizes)
	}
}

// waitFor waits until cond holds; after 5 s it fails the test (from any
// goroutine) and gives up.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Error("timed out")
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// A group that panics leaves no queue behind: its members run alone, its
// leader panics, and the next call leads a group of its own.
func TestCombinerSurvivesAPanickingGroup(t *testing.T) {
	var c *combiner[int]
	var ranAlone sync.Map
	release := make(chan struct{})
	c = newCombiner(100, func(reqs []int) []verdict {
		switch reqs[0] {
		case 0:
			<-release
		case 1:
			panic("boom")
		}
		return make([]verdict, len(reqs))
	}, func(r int) error { ranAlone.Store(r, true); return nil })
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = c.do(0) }()
	waitFor(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.leading })
	var panicked any
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { panicked = recover() }()
		_ = c.do(1)
	}()
	waitFor(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return len(c.queue) == 1 })
	for r := 2; r <= 3; r++ {
		wg.Add(1)
		go func() { defer wg.Done(); _ = c.do(r) }()
	}
	waitFor(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return len(c.queue) == 3 })
	close(release)
	wg.Wait()
	if panicked != "boom" {
		t.Errorf("the group's leader recovered %v, want its group's panic", panicked)
	}
	for r := 2; r <= 3; r++ {
		if _, ok := ranAlone.Load(r); !ok {
			t.Errorf("call %d did not run alone", r)
		}
	}
	if err := c.do(7); err != nil || c.leading {
		t.Errorf("a later call: %v, leading %v", err, c.leading)
	}
}
