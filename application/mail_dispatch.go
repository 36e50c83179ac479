package application

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopstock/inventory/ports"
)

// MailDispatcher sends the mails of the outbox. It leases the due mails in
// one short transaction, sends them outside of it, and records each outcome
// in another, so that a slow mail server holds no database locks; the lease
// keeps other dispatchers, in this or another instance, off those mails.
type MailDispatcher struct {
	uow    ports.UnitOfWork
	clock  ports.Clock
	mailer ports.Mailer

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
	return &MailDispatcher{
		uow: a.uow, clock: a.clock, mailer: mailer,
		Lease: time.Minute, Batch: 20, MaxAttempts: 10,
		FirstRetry: 2 * time.Second, MaxRetry: 5 * time.Minute,
	}
}

// DispatchReport tells what one round did; Failures holds the send errors.
type DispatchReport struct {
	Sent, Retrying, GivenUp int
	Failures                []error
}

// DispatchOnce sends the mails that are due now.
func (d *MailDispatcher) DispatchOnce(ctx context.Context) (DispatchReport, error) {
	var report DispatchReport
	var claimed []ports.OutboxMail
	// A read first: an empty outbox, the usual case, takes no write lock
	// (on SQLite that would be the whole database's, every second).
	var anyDue bool
	err := d.uow.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
		anyDue, err = s.Outbox().AnyDue(ctx, d.clock.Now())
		return err
	})
	if err != nil || !anyDue {
		return report, err
	}
	err = d.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
		claimed, err = s.Outbox().Claim(ctx, d.clock.Now(), d.Lease, d.Batch)
		return err
	})
	if err != nil || len(claimed) == 0 {
		return report, err
	}
	// Sending stops well before the lease ends, so that no other dispatcher
	// can have claimed a mail again while this one still sends it.
	sendCtx, cancel := context.WithTimeout(ctx, d.Lease*3/4)
	defer cancel()
	for _, m := range claimed {
		if sendCtx.Err() != nil {
			break // the rest are claimed again once the lease has run out
		}
		sendErr := d.mailer.Send(sendCtx, m.Mail)
		err := d.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
			now := d.clock.Now()
			if sendErr == nil {
				return s.Outbox().MarkSent(ctx, m.ID, now)
			}
			retryAt := time.Time{}
			if d.retries(m, sendErr) {
				retryAt = now.Add(d.backoff(m.Attempts))
			}
			return s.Outbox().MarkFailed(ctx, m.ID, truncate(sendErr.Error(), 1000), retryAt, now)
		})
		if err != nil {
			return report, fmt.Errorf("record outcome of mail %d: %w", m.ID, err)
		}
		switch {
		case sendErr == nil:
			report.Sent++
		case d.retries(m, sendErr):
			report.Retrying++
			report.Failures = append(report.Failures, fmt.Errorf("mail %d to %s, attempt %d: %w", m.ID, m.Mail.To, m.Attempts, sendErr))
		default:
			report.GivenUp++
			report.Failures = append(report.Failures, fmt.Errorf("mail %d to %s given up after attempt %d: %w", m.ID, m.Mail.To, m.Attempts, sendErr))
		}
	}
	return report, nil
}

// retries tells whether a failed mail gets another attempt: not when the
// attempts are used up, nor when the mailer says it can never be delivered.
func (d *MailDispatcher) retries(m ports.OutboxMail, sendErr error) bool {
	return m.Attempts < d.MaxAttempts && !errors.Is(sendErr, ports.ErrUndeliverable)
}

// backoff is the wait after the given number of failed attempts.
func (d *MailDispatcher) backoff(attempts int) time.Duration {
	wait := d.FirstRetry
	for i := 1; i < attempts && wait < d.MaxRetry; i++ {
		wait *= 2
	}
	return min(wait, d.MaxRetry)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
