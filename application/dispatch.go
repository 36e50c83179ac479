package application

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/shopstock/inventory/ports"
)

// dispatcher is the one design every queue of outgoing work shares (status
// mails, webhook deliveries): due jobs are leased in one short transaction,
// worked outside of it, and each outcome is recorded in another, so that a
// slow receiver holds no database locks. The lease, kept on the database's
// clock by the queue, keeps every other dispatcher, in this or another
// instance, off the claimed jobs; an outcome is recorded only while the
// attempt still holds its lease, so no attempt is ever made or counted
// twice. A dispatcher that dies after claiming leaves its jobs leased: they
// are claimed again, by anyone, once the lease has run out.
type dispatcher[J any] struct {
	uow   ports.UnitOfWork
	queue func(ports.Store) ports.LeaseQueue[J]
	// work makes one attempt.
	work func(ctx context.Context, job ports.Leased[J]) attemptOutcome
	// retryAfter is the wait before the next attempt after a failed one
	// (sinceFirst: the time since the first attempt), 0 to give up.
	retryAfter func(job ports.Leased[J], sinceFirst time.Duration, o attemptOutcome) time.Duration
	// describe names a job in failure reports.
	describe func(job ports.Leased[J]) string
	// parallel is how many claimed jobs are worked at once.
	parallel int
}

// attemptOutcome is what one attempt achieved: Err nil is success.
type attemptOutcome struct {
	StatusCode int
	Err        error
}

// DispatchReport tells what one round did; Failures holds the attempts' errors.
type DispatchReport struct {
	Sent, Retrying, GivenUp int
	Failures                []error
}

// Done is how many jobs the round finished or rescheduled.
func (r DispatchReport) Done() int { return r.Sent + r.Retrying + r.GivenUp }

// once works the jobs that are due now, up to batch of them, each under a
// lease of the given length.
func (d *dispatcher[J]) once(ctx context.Context, lease time.Duration, batch int) (DispatchReport, error) {
	var report DispatchReport
	// A read first: an empty queue, the usual case, takes no write lock
	// (on SQLite that would be the whole database's, every second).
	var anyDue bool
	err := d.uow.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
		anyDue, err = d.queue(s).AnyDue(ctx)
		return err
	})
	if err != nil || !anyDue {
		return report, err
	}
	var claimed []ports.Leased[J]
	err = d.uow.Write(ctx, func(ctx context.Context, s ports.Store) (err error) {
		claimed, err = d.queue(s).Claim(ctx, lease, batch)
		return err
	})
	if err != nil || len(claimed) == 0 {
		return report, err
	}
	claimedAt := time.Now() // monotonic: only differences are used
	// Work stops well before the lease ends, so that no other dispatcher
	// can have claimed a job again while this one still works on it.
	workCtx, cancel := context.WithTimeout(ctx, lease*3/4)
	defer cancel()

	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, max(d.parallel, 1))
	var wg sync.WaitGroup
	for _, job := range claimed {
		sem <- struct{}{}
		if workCtx.Err() != nil {
			<-sem
			break // the rest are claimed again once the lease has run out
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			o := d.work(workCtx, job)
			retry := time.Duration(0)
			if o.Err != nil {
				retry = d.retryAfter(job, job.SinceFirst+time.Since(claimedAt), o)
			}
			// Recorded with the caller's context: a dispatcher that is
			// stopped records nothing and its lease runs out instead.
			err := d.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
				if o.Err == nil {
					return d.queue(s).Succeeded(ctx, job.ID, job.Attempt, o.StatusCode)
				}
				return d.queue(s).Failed(ctx, job.ID, job.Attempt, o.StatusCode, truncate(o.Err.Error(), 1000), retry)
			})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				if firstErr == nil {
					firstErr = fmt.Errorf("record outcome of %s: %w", d.describe(job), err)
				}
			case o.Err == nil:
				report.Sent++
			case retry > 0:
				report.Retrying++
				report.Failures = append(report.Failures, fmt.Errorf("%s, attempt %d: %w", d.describe(job), job.Attempt, o.Err))
			default:
				report.GivenUp++
				report.Failures = append(report.Failures, fmt.Errorf("%s given up after attempt %d: %w", d.describe(job), job.Attempt, o.Err))
			}
		}()
	}
	wg.Wait()
	return report, firstErr
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
