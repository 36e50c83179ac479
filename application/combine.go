package application

import "sync"

// combiner lets the concurrent calls of one use case in this process share
// a transaction (group commit). A call queues its request; when no group is
// under way, it leads: it takes the queue (at most max requests, its own
// first) and runs them together. While a group runs, new calls queue
// behind it; when it is done, its leader hands every member its verdict and
// the lead to the first request still queued, which takes the next group.
// So at most one group runs at a time, and it holds every request that
// arrived while the one before it ran.
//
// The combiner only coordinates: what a group does, and which of its
// requests must rather run alone, the group function decides.
type combiner[R any] struct {
	max   int
	group func(reqs []R) []verdict
	alone func(req R) error

	mu      sync.Mutex
	queue   []*queued[R]
	leading bool
}

// verdict is what a group decided for one of its requests: its result, or
// that it must run alone (by the caller, after the group has ended).
type verdict struct {
	err   error
	alone bool
}

type queued[R any] struct {
	req R
	// out receives the request's verdict, or that it leads the next group.
	out chan signal
}

type signal struct {
	verdict
	lead bool
}

// newCombiner makes a combiner of groups of at most max requests.
func newCombiner[R any](max int, group func(reqs []R) []verdict, alone func(req R) error) *combiner[R] {
	return &combiner[R]{max: max, group: group, alone: alone}
}

// do runs req in a group with whatever else is queued, and returns its
// result. It waits for its group without regard to the caller's context:
// a group takes bounded time, and the group function decides what a
// request whose context has ended gets.
func (c *combiner[R]) do(req R) error {
	me := &queued[R]{req: req, out: make(chan signal, 1)}
	c.mu.Lock()
	c.queue = append(c.queue, me)
	if c.leading {
		c.mu.Unlock()
		s := <-me.out
		if !s.lead {
			return c.finish(req, s.verdict)
		}
	} else {
		c.leading = true
		c.mu.Unlock()
	}
	// Leading. This request is first in the queue: a call that finds no
	// group under way finds the queue empty, and the lead is handed to the
	// first request queued, which nobody else takes out.
	c.mu.Lock()
	n := min(len(c.queue), c.max)
	members := c.queue[:n:n]
	c.queue = append([]*queued[R](nil), c.queue[n:]...)
	c.mu.Unlock()

	reqs := make([]R, n)
	for i, m := range members {
		reqs[i] = m.req
	}
	verdicts, panicked := c.run(reqs)
	for i, m := range members {
		if i > 0 {
			m.out <- signal{verdict: verdicts[i]}
		}
	}

	c.mu.Lock()
	if len(c.queue) == 0 {
		c.leading = false
	} else {
		c.queue[0].out <- signal{lead: true}
	}
	c.mu.Unlock()
	if panicked != nil {
		panic(panicked)
	}
	return c.finish(req, verdicts[0])
}

// run runs a group. Should it panic, every member runs alone instead and
// the leader panics once it has handed the lead on, so that the queue
// never waits for a leader that has gone.
func (c *combiner[R]) run(reqs []R) (verdicts []verdict, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			verdicts, panicked = make([]verdict, len(reqs)), p
			for i := range verdicts {
				verdicts[i].alone = true
			}
		}
	}()
	return c.group(reqs), nil
}

// waiting is how many requests queue behind the group under way.
func (c *combiner[R]) waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue)
}

func (c *combiner[R]) finish(req R, v verdict) error {
	if v.alone {
		return c.alone(req)
	}
	return v.err
}
