package bench_test

import (
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkEventCost measures what recording events costs a 1000-operation
// change batch (100 products, so 100 stock.changed events): two servers on
// the same seeded database, one recording events (as the service runs) and
// one without (which still keeps the figures: their totals and snapshots),
// take batches in turn from one client, so that a noisy
// neighbour hits both alike. It reports both medians and events-x, the
// ratio (the goal is under 1.10):
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench EventCost -benchtime 100x
func BenchmarkEventCost(b *testing.B) {
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			url := testdb.SQLite(b)
			if database == "postgres" {
				url = testdb.Postgres(b)
			}
			on, _ := benchServer(b, url, true)
			off, _ := benchServer(b, url, false, application.WithoutEvents())
			type batch struct {
				key  string
				body []byte
			}
			batches := make([]batch, 2*b.N)
			for n := range batches {
				body, err := bench.ChangeBatch(bench.Default, 0, 1, n, 1000)
				if err != nil {
					b.Fatal(err)
				}
				batches[n] = batch{key: nextKey("events"), body: body}
			}
			var with, without []time.Duration
			timed := func(server string, p batch) time.Duration {
				t0 := time.Now()
				if err := sendBatch(server, p.key, p.body); err != nil {
					b.Fatal(err)
				}
				return time.Since(t0)
			}
			b.ResetTimer()
			for n := range b.N {
				first, second := batches[2*n], batches[2*n+1]
				if n%2 == 0 {
					with = append(with, timed(on, first))
					without = append(without, timed(off, second))
				} else {
					without = append(without, timed(off, first))
					with = append(with, timed(on, second))
				}
			}
			b.StopTimer()
			b.ReportMetric(ms(median(with)), "events-ms")
			b.ReportMetric(ms(median(without)), "no-events-ms")
			b.ReportMetric(ms(median(with))/ms(median(without)), "events-x")
		})
	}
}
