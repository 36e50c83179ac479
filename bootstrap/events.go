package bootstrap

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/webhook"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/ports"
)

// runWebhookDispatcher delivers events to webhooks in the background from
// start to stop, looking every second, so that a first attempt follows its
// commit within the 5 s the contract allows. Every instance runs one; the
// deliveries' leases keep them from making one attempt twice.
func runWebhookDispatcher(lc fx.Lifecycle, app *application.App, c Config, log *zap.Logger) {
	if c.WebhookAllowPrivate {
		log.Warn("webhooks may deliver to loopback, private, link-local and unspecified addresses (INVENTORY_WEBHOOK_ALLOW_PRIVATE)")
	}
	d := app.WebhookDispatcher(webhook.NewSender(c.WebhookAllowPrivate))
	log = log.Named("webhooks")
	every(lc, dispatchInterval, func(ctx context.Context) {
		for ctx.Err() == nil {
			report, err := d.DispatchOnce(ctx)
			for _, f := range report.Failures {
				log.Warn("webhook delivery failed", zap.Error(f))
			}
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					log.Error("webhook dispatch failed", zap.Error(err))
				}
				return
			}
			if report.Done() == 0 {
				return
			}
		}
	})
}

// retentionInterval is how often a purge with the given retention runs: a
// tenth of the retention, at least every second and at most every
// purgeInterval, so that a short retention is kept closely too.
func retentionInterval(retention time.Duration) time.Duration {
	return min(max(retention/10, time.Second), purgeInterval)
}

// runRetentionPurges removes events and finished mails past their
// retention, at start and then periodically.
func runRetentionPurges(lc fx.Lifecycle, app *application.App, c Config, log *zap.Logger) {
	every(lc, retentionInterval(c.EventRetention), func(ctx context.Context) {
		if n, err := app.PurgeEvents(ctx, c.EventRetention); err != nil && ctx.Err() == nil {
			log.Warn("purging events failed", zap.Error(err))
		} else if n > 0 {
			log.Info("purged events", zap.Int("count", n))
		}
	})
	every(lc, retentionInterval(c.MailRetention), func(ctx context.Context) {
		if n, err := app.PurgeMails(ctx, c.MailRetention); err != nil && ctx.Err() == nil {
			log.Warn("purging mails failed", zap.Error(err))
		} else if n > 0 {
			log.Info("purged mails", zap.Int("count", n))
		}
	})
}

// queueFiguresMaxAge is how long the queue figures of one scrape serve
// the next: /metrics answers without authentication, and without it a
// flood of scrapes would cost two queries each.
const queueFiguresMaxAge = 5 * time.Second

// queueCollector reports the queues of outgoing work. It computes them on a
// scrape when the last figures are older than maxAge, one computation at a
// time; scrapes in between, and those waiting for the computation, get its
// figures.
type queueCollector struct {
	log                       *zap.Logger
	mailStats, hookStats      func(context.Context) (ports.QueueStats, error)
	now                       func() time.Time
	maxAge                    time.Duration
	mailPending, mailOldest   *prometheus.Desc
	hooksPending, hooksOldest *prometheus.Desc

	mu         sync.Mutex
	computedAt time.Time
	figures    []prometheus.Metric
}

// registerQueueMetrics adds gauges of pending mails and webhook deliveries
// and of how long the oldest of each has waited.
func registerQueueMetrics(reg *prometheus.Registry, app *application.App, log *zap.Logger) error {
	return reg.Register(newQueueCollector(app.MailQueueStats, app.WebhookQueueStats, time.Now, log))
}

func newQueueCollector(mailStats, hookStats func(context.Context) (ports.QueueStats, error), now func() time.Time, log *zap.Logger) *queueCollector {
	return &queueCollector{
		log: log, mailStats: mailStats, hookStats: hookStats, now: now, maxAge: queueFiguresMaxAge,
		mailPending:  prometheus.NewDesc("inventory_mail_outbox_pending", "Status mails not yet sent or given up.", nil, nil),
		mailOldest:   prometheus.NewDesc("inventory_mail_outbox_oldest_pending_age_seconds", "Age of the oldest pending status mail (0 when none).", nil, nil),
		hooksPending: prometheus.NewDesc("inventory_webhook_deliveries_pending", "Webhook deliveries not yet delivered or given up.", nil, nil),
		hooksOldest:  prometheus.NewDesc("inventory_webhook_deliveries_oldest_pending_age_seconds", "Age of the oldest pending webhook delivery (0 when none).", nil, nil),
	}
}

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- q.mailPending
	ch <- q.mailOldest
	ch <- q.hooksPending
	ch <- q.hooksOldest
}

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.computedAt.IsZero() || q.now().Sub(q.computedAt) >= q.maxAge {
		q.figures = q.compute()
		// A failed query waits for the next interval too, so that scrapes
		// do not pile onto a database in trouble.
		q.computedAt = q.now()
	}
	for _, m := range q.figures {
		ch <- m
	}
}

func (q *queueCollector) compute() []prometheus.Metric {
	ctx, cancel := context.WithTimeout(application.WithPrincipal(context.Background(), application.System), 2*time.Second)
	defer cancel()
	var figures []prometheus.Metric
	for _, g := range []struct {
		stats           func(context.Context) (ports.QueueStats, error)
		pending, oldest *prometheus.Desc
	}{{q.mailStats, q.mailPending, q.mailOldest}, {q.hookStats, q.hooksPending, q.hooksOldest}} {
		st, err := g.stats(ctx)
		if err != nil {
			q.log.Warn("queue metrics unavailable", zap.Error(err))
			continue
		}
		figures = append(figures,
			prometheus.MustNewConstMetric(g.pending, prometheus.GaugeValue, float64(st.Pending)),
			prometheus.MustNewConstMetric(g.oldest, prometheus.GaugeValue, st.OldestAge.Seconds()))
	}
	return figures
}
