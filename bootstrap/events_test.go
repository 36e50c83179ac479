package bootstrap

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/ports"
)

// /metrics answers anyone: a flood of scrapes must cost at most one pair of
// queue queries per interval, however many scrapes come, at once or not.
func TestAFloodOfScrapesQueriesTheQueuesOncePerInterval(t *testing.T) {
	var mails, hooks atomic.Int64
	var mu sync.Mutex
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	stats := func(n *atomic.Int64, pending int) func(context.Context) (ports.QueueStats, error) {
		return func(context.Context) (ports.QueueStats, error) {
			n.Add(1)
			time.Sleep(10 * time.Millisecond) // long enough for scrapes to meet
			return ports.QueueStats{Pending: pending}, nil
		}
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(newQueueCollector(stats(&mails, 3), stats(&hooks, 4), clock, zap.NewNop()))
	pending := func(name string) float64 {
		families, err := reg.Gather()
		if err != nil {
			t.Error(err)
			return -1
		}
		for _, f := range families {
			if f.GetName() == name {
				return f.GetMetric()[0].GetGauge().GetValue()
			}
		}
		t.Errorf("no %s", name)
		return -1
	}

	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			if got := pending("inventory_webhook_deliveries_pending"); got != 4 {
				t.Errorf("webhook deliveries pending: %v, want 4", got)
			}
		})
	}
	wg.Wait()
	advance(queueFiguresMaxAge - time.Millisecond)
	for range 100 {
		if got := pending("inventory_mail_outbox_pending"); got != 3 {
			t.Fatalf("mails pending: %v, want 3", got)
		}
	}
	if mails.Load() != 1 || hooks.Load() != 1 {
		t.Fatalf("200 scrapes within %v ran the queries %d and %d times, want once", queueFiguresMaxAge, mails.Load(), hooks.Load())
	}
	advance(time.Millisecond)
	pending("inventory_mail_outbox_pending")
	pending("inventory_mail_outbox_pending")
	if mails.Load() != 2 || hooks.Load() != 2 {
		t.Fatalf("after the interval: %d and %d queries, want 2", mails.Load(), hooks.Load())
	}
}

// A failing query leaves its gauges out and is not repeated within the
// interval either.
func TestAFailingQueueQueryWaitsForTheNextInterval(t *testing.T) {
	var calls atomic.Int64
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	failing := func(context.Context) (ports.QueueStats, error) {
		calls.Add(1)
		return ports.QueueStats{}, errors.New("database unavailable")
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(newQueueCollector(failing, failing, func() time.Time { return now }, zap.NewNop()))
	for range 10 {
		families, err := reg.Gather()
		if err != nil || len(families) != 0 {
			t.Fatalf("gather: %v, %v", families, err)
		}
	}
	if calls.Load() != 2 {
		t.Fatalf("%d queries, want 2 (one per queue)", calls.Load())
	}
}
