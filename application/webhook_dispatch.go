package application

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// RetrySchedule is when a failed delivery is tried again: after each of
// Delays in turn, then every Repeat, as long as the next attempt falls
// within GiveUpAfter of the first; then it is given up.
type RetrySchedule struct {
	Delays      []time.Duration
	Repeat      time.Duration
	GiveUpAfter time.Duration
}

// WebhookRetrySchedule is when a failed webhook delivery is tried again: 5 s,
// 30 s, 2 min, 10 min, 1 h, then hourly until 24 h after the first attempt.
var WebhookRetrySchedule = RetrySchedule{
	Delays:      []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, time.Hour},
	Repeat:      time.Hour,
	GiveUpAfter: 24 * time.Hour,
}

// Next is the wait after the given number of failed attempts, the last of
// which failed sinceFirst after the first began; 0 means give up.
func (r RetrySchedule) Next(failedAttempts int, sinceFirst time.Duration) time.Duration {
	wait := r.Repeat
	if failedAttempts >= 1 && failedAttempts <= len(r.Delays) {
		wait = r.Delays[failedAttempts-1]
	}
	if sinceFirst+wait > r.GiveUpAfter {
		return 0
	}
	return wait
}

// WebhookDispatcher delivers events to webhooks through the dispatcher the
// mail outbox uses too: per webhook only the oldest unfinished delivery is
// claimable, so events go out in feed order; the lease keeps other
// instances off it.
type WebhookDispatcher struct {
	d     dispatcher[ports.WebhookAttempt]
	clock ports.Clock

	// Lease is how long a claimed delivery is reserved; an attempt (at
	// most Timeout) must fit well inside it.
	Lease time.Duration
	// Batch is the most deliveries (of different webhooks) claimed and
	// attempted at once.
	Batch int
	// Timeout is how long a receiver has to answer.
	Timeout time.Duration
	// Schedule is when failed deliveries are tried again.
	Schedule RetrySchedule
}

// WebhookDispatcher returns a dispatcher that sends through sender.
func (a *App) WebhookDispatcher(sender ports.WebhookSender) *WebhookDispatcher {
	w := &WebhookDispatcher{clock: a.clock, Lease: time.Minute, Batch: 20, Timeout: 10 * time.Second, Schedule: WebhookRetrySchedule}
	w.d = dispatcher[ports.WebhookAttempt]{
		uow:   a.uow,
		queue: func(s ports.Store) ports.LeaseQueue[ports.WebhookAttempt] { return s.Webhooks() },
		retryAfter: func(job ports.Leased[ports.WebhookAttempt], sinceFirst time.Duration, _ attemptOutcome) time.Duration {
			return w.Schedule.Next(job.Attempt, sinceFirst)
		},
		describe: func(job ports.Leased[ports.WebhookAttempt]) string {
			return fmt.Sprintf("event %d to webhook %d", job.Job.Event.ID, job.Job.WebhookID)
		},
	}
	w.d.work = func(ctx context.Context, job ports.Leased[ports.WebhookAttempt]) attemptOutcome {
		// The URL and the secret are read again right before sending: a
		// secret rotated, or a webhook deleted, since the claim takes
		// effect for this attempt already.
		err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
			hook, err := s.Webhooks().Get(ctx, job.Job.WebhookID)
			if err != nil {
				return err
			}
			job.Job.URL = hook.URL()
			job.Job.Secret, err = a.secrets.OpenWebhookSecret(hook.Secret())
			return err
		})
		if err != nil {
			return attemptOutcome{Err: err}
		}
		return w.attempt(ctx, sender, job)
	}
	return w
}

// DispatchOnce makes the delivery attempts that are due now.
func (w *WebhookDispatcher) DispatchOnce(ctx context.Context) (DispatchReport, error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return DispatchReport{}, err
	}
	w.d.parallel = w.Batch
	return w.d.once(ctx, w.Lease, w.Batch)
}

// deliveryBody is the body Standard Webhooks prescribes.
type deliveryBody struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

func (w *WebhookDispatcher) attempt(ctx context.Context, sender ports.WebhookSender, job ports.Leased[ports.WebhookAttempt]) attemptOutcome {
	e := job.Job.Event
	body, err := json.Marshal(deliveryBody{Type: e.Type, Timestamp: e.CreatedAt.UTC().Format(time.RFC3339), Data: e.Data})
	if err != nil {
		return attemptOutcome{Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, w.Timeout)
	defer cancel()
	status, err := sender.Send(ctx, ports.WebhookRequest{
		URL: job.Job.URL, Secret: job.Job.Secret, MessageID: strconv.FormatInt(e.ID, 10),
		Timestamp: w.clock.Now(), Body: body,
	})
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return attemptOutcome{Err: fmt.Errorf("timed out after %s s", strconv.FormatFloat(w.Timeout.Seconds(), 'f', -1, 64))}
	case err != nil:
		return attemptOutcome{Err: err}
	case status < 200 || status > 299:
		return attemptOutcome{StatusCode: status, Err: fmt.Errorf("the receiver answered HTTP %d", status)}
	}
	return attemptOutcome{StatusCode: status}
}

// WebhookQueueStats counts the deliveries still to make.
func (a *App) WebhookQueueStats(ctx context.Context) (st ports.QueueStats, err error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return st, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		st, err = s.Webhooks().Stats(ctx)
		return err
	})
	return st, err
}
