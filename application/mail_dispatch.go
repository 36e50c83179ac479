package application

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// MailDispatcher sends the mails of the outbox through the dispatcher that
// webhook deliveries use too (see dispatcher): leased on the database's
// clock, sent outside any transaction, retried with exponential backoff.
type MailDispatcher struct {
	d dispatcher[ports.Mail]

	// Lease is how long a claimed mail is reserved for this dispatcher; its
	// sending is cut off before the lease runs out.
	Lease time.Duration
	// Batch is the most mails claimed at once.
	Batch int
	// MaxAttempts is how often a mail is tried before it is given up.
	MaxAttempts int
	// FirstRetry is the wait after the first failure; it doubles with every
	// further failure up to MaxRetry.
	FirstRetry, MaxRetry time.Duration
}

// MailDispatcher returns a dispatcher that sends through mailer, with
// defaults: 1 minute lease, 20 mails a round, 10 attempts, retries after
// 2s, 4s, 8s … up to 5 minutes.
func (a *App) MailDispatcher(mailer ports.Mailer) *MailDispatcher {
	m := &MailDispatcher{
		Lease: time.Minute, Batch: 20, MaxAttempts: 10,
		FirstRetry: 2 * time.Second, MaxRetry: 5 * time.Minute,
	}
	m.d = dispatcher[ports.Mail]{
		uow:   a.uow,
		queue: func(s ports.Store) ports.LeaseQueue[ports.Mail] { return s.Outbox() },
		work: func(ctx context.Context, job ports.Leased[ports.Mail]) attemptOutcome {
			return attemptOutcome{Err: mailer.Send(ctx, job.Job)}
		},
		retryAfter: func(job ports.Leased[ports.Mail], _ time.Duration, o attemptOutcome) time.Duration {
			// A mail the server refused for good would fail the same way again.
			if job.Attempt >= m.MaxAttempts || errors.Is(o.Err, ports.ErrUndeliverable) {
				return 0
			}
			return m.backoff(job.Attempt)
		},
		describe: func(job ports.Leased[ports.Mail]) string {
			return fmt.Sprintf("mail %d to %s", job.ID, job.Job.To)
		},
		parallel: 1, // one SMTP conversation at a time is what servers like
	}
	return m
}

// DispatchOnce sends the mails that are due now.
func (m *MailDispatcher) DispatchOnce(ctx context.Context) (DispatchReport, error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return DispatchReport{}, err
	}
	return m.d.once(ctx, m.Lease, m.Batch)
}

// backoff is the wait after the given number of failed attempts.
func (m *MailDispatcher) backoff(attempts int) time.Duration {
	wait := m.FirstRetry
	for i := 1; i < attempts && wait < m.MaxRetry; i++ {
		wait *= 2
	}
	return min(wait, m.MaxRetry)
}

// PurgeMails removes sent and given-up mails older than retention, so that
// customer addresses are not kept forever.
func (a *App) PurgeMails(ctx context.Context, retention time.Duration) (n int, err error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return n, err
	}
	return a.purgeInChunks(ctx, func(ctx context.Context, s ports.Store) (int, error) {
		return s.Outbox().PurgeFinished(ctx, retention, PurgeChunk)
	})
}

// MailQueueStats counts the mails still to send.
func (a *App) MailQueueStats(ctx context.Context) (st ports.QueueStats, err error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return st, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		st, err = s.Outbox().Stats(ctx)
		return err
	})
	return st, err
}
