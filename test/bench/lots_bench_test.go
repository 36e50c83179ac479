package bench_test

import (
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkLotsCost measures what lots cost a change batch: the same
// batches on the same data, once with no product lot-tracked and once with
// half of them (the odd ones) tracked, alternating from one client, and
// reports both medians and lots-cost = half / none (the goal is under
// 1.15). The shapes are the floor benchmark's (seeded: bench.Seed, every
// tracked mapping holding two lots, bench.TrackHalf) and the scattered one
// (loaded through the API, a tracked product's stock in one lot; bins by
// id). A +1 on a tracked product names LOT-A; a -1 takes lots first
// expiring first out. With fsync on:
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench LotsCost -benchtime 30x
func BenchmarkLotsCost(b *testing.B) {
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			open := func() string {
				if database == "postgres" {
					return testdb.Postgres(b)
				}
				return testdb.SQLite(b)
			}
			b.Run("shape=seeded", func(b *testing.B) {
				none, _ := benchServer(b, open(), true)
				half, db := benchServer(b, open(), true)
				if err := bench.TrackHalf(apitest.Admin(), db); err != nil {
					b.Fatal(err)
				}
				lotsCost(b, none, half, seeded.service)
			})
			b.Run("shape=scattered", func(b *testing.B) {
				shape := scatteredSize()
				none, noneDB := benchServer(b, open(), false)
				bins, err := loadScattered(apitest.Admin(), none, noneDB, shape)
				if err != nil {
					b.Fatal(err)
				}
				shape.tracked = true
				half, halfDB := benchServer(b, open(), false)
				if _, err := loadScattered(apitest.Admin(), half, halfDB, shape); err != nil {
					b.Fatal(err)
				}
				lotsCost(b, none, half, scatteredBatches(shape, bins, true).service)
			})
		})
	}
}

// lotsCost sends b.N batches to each server, one of each in turn, the
// tracked server's with lots named where stock comes in.
func lotsCost(b *testing.B, none, half string, batch func(c, clients, n int) ([]byte, error)) {
	var untracked, tracked []time.Duration
	for n := range b.N {
		body, err := batch(0, 1, n)
		if err != nil {
			b.Fatal(err)
		}
		withLots, err := bench.WithLots(body)
		if err != nil {
			b.Fatal(err)
		}
		timed := func(server string, body []byte) time.Duration {
			t0 := time.Now()
			if err := sendBatch(server, nextKey("lots"), body); err != nil {
				b.Fatal(err)
			}
			return time.Since(t0)
		}
		if n%2 == 0 {
			untracked = append(untracked, timed(none, body))
			tracked = append(tracked, timed(half, withLots))
		} else {
			tracked = append(tracked, timed(half, withLots))
			untracked = append(untracked, timed(none, body))
		}
	}
	b.ReportMetric(ms(median(untracked)), "untracked-ms")
	b.ReportMetric(ms(median(tracked)), "half-tracked-ms")
	b.ReportMetric(ms(median(tracked))/ms(median(untracked)), "lots-cost")
}
