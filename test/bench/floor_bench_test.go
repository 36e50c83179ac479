package bench_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkBatchVersusFloor measures the service's 1000-operation change
// batch beside the floor (floor_test.go: the same database work done
// directly in SQL) on the same seeded data, 100 000 mappings, and reports
// both and their ratio:
//
//   - clients=1: service-ms and floor-ms are medians of b.N batches each,
//     run alternately so that a noisy neighbour hits both alike;
//     x-floor = service-ms / floor-ms (the goal is at most 1.5).
//   - clients=4: service-batches/s and floor-batches/s are throughputs of
//     b.N batches from 4 clients, in rounds that alternate between the two;
//     on SQLite, which admits one writer at a time, the floor is 1000 / the
//     floor's median at 1 client, measured in the same rounds.
//     of-floor = service / floor (the goal is at least 0.8).
//
// Figures mean something only with fsync on:
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench VersusFloor -benchtime 200x
func BenchmarkBatchVersusFloor(b *testing.B) {
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			url := testdb.SQLite(b)
			if database == "postgres" {
				url = testdb.Postgres(b)
			}
			server, db := benchServer(b, url, true)
			f := newFloor(b, url, db)
			settings := durability(b, db)
			b.Run("clients=1", func(b *testing.B) {
				b.Logf("durability: %s", settings)
				service, floor := alternate(b, server, f, seeded)
				b.ReportMetric(ms(median(service)), "service-ms")
				b.ReportMetric(ms(median(floor)), "floor-ms")
				b.ReportMetric(ms(median(service))/ms(median(floor)), "x-floor")
			})
			b.Run("clients=4", func(b *testing.B) {
				service, floor := alternateThroughput(b, server, f, seeded)
				b.ReportMetric(service, "service-batches/s")
				b.ReportMetric(floor, "floor-batches/s")
				b.ReportMetric(service/floor, "of-floor")
			})
		})
	}
}

var floorSeq int

// batchSource makes the batches that the service and the floor are
// measured with: the n-th batch of client c out of clients, as the
// service's HTTP body (a change batch) and as the floor's prepared batch.
type batchSource struct {
	service func(c, clients, n int) ([]byte, error)
	floor   func(key string, c, clients, n int) (floorBatch, error)
}

// seeded is the batches of the seeded shape (bench.Changes).
var seeded = batchSource{
	service: func(c, clients, n int) ([]byte, error) { return bench.ChangeBatch(bench.Default, c, clients, n, 1000) },
	floor: func(key string, c, clients, n int) (floorBatch, error) {
		return newFloorBatch(bench.Default, key, c, clients, n)
	},
}

func nextKey(kind string) string {
	floorSeq++
	return fmt.Sprintf("%s-%d-%d", kind, time.Now().UnixNano(), floorSeq)
}

// alternate runs b.N service batches and b.N floor batches of src from one
// client, one of each in turn (which goes first alternates too), and returns
// their durations. An empty server runs the floor alone.
func alternate(b *testing.B, server string, f floor, src batchSource) (service, floor []time.Duration) {
	type pair struct {
		key  string
		body []byte
		fb   floorBatch
	}
	pairs := make([]pair, b.N)
	for n := range pairs {
		p := pair{key: nextKey("service")}
		var err error
		if server != "" {
			if p.body, err = src.service(0, 1, n); err != nil {
				b.Fatal(err)
			}
		}
		if p.fb, err = src.floor(nextKey("floor"), 0, 1, n); err != nil {
			b.Fatal(err)
		}
		pairs[n] = p
	}
	ctx := apitest.Admin()
	timed := func(run func() error) time.Duration {
		t0 := time.Now()
		if err := run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	b.ResetTimer()
	for n, p := range pairs {
		runService := func() error { return sendBatch(server, p.key, p.body) }
		runFloor := func() error { return f.run(ctx, p.fb) }
		if server == "" {
			floor = append(floor, timed(runFloor))
			continue
		}
		if n%2 == 0 {
			service = append(service, timed(runService))
			floor = append(floor, timed(runFloor))
		} else {
			floor = append(floor, timed(runFloor))
			service = append(service, timed(runService))
		}
	}
	b.StopTimer()
	return service, floor
}

// alternateThroughput runs b.N service batches of src from 4 clients (in
// the seeded shape, each its own articles) and b.N floor batches, from 4
// clients on PostgreSQL and from one on SQLite, in four rounds that alternate between the two, and returns
// both rates in batches per second. On SQLite the floor's rate is 1000 / its
// median: one writer at a time is all it admits.
func alternateThroughput(b *testing.B, server string, f floor, src batchSource) (service, floor float64) {
	const clients, rounds = 4, 4
	perClient := (b.N + clients - 1) / clients
	var serviceRuns, floorRuns [clients][]func() error
	for c := range clients {
		for n := range perClient {
			body, err := src.service(c, clients, n)
			if err != nil {
				b.Fatal(err)
			}
			key := nextKey("service4")
			serviceRuns[c] = append(serviceRuns[c], func() error { return sendBatch(server, key, body) })
			fc, fclients := c, clients
			if !f.postgres {
				fc, fclients = 0, 1
			}
			fb, err := src.floor(nextKey("floor4"), fc, fclients, c*perClient+n)
			if err != nil {
				b.Fatal(err)
			}
			floorRuns[c] = append(floorRuns[c], func() error { return f.run(apitest.Admin(), fb) })
		}
	}
	var serviceTime, floorTime time.Duration
	var floorTimes []time.Duration
	b.ResetTimer()
	for r := range rounds {
		lo, hi := r*perClient/rounds, (r+1)*perClient/rounds
		runService := func() {
			serviceTime += concurrently(b, serviceRuns[:], lo, hi)
		}
		runFloor := func() {
			if f.postgres {
				floorTime += concurrently(b, floorRuns[:], lo, hi)
				return
			}
			for c := range clients {
				for _, run := range floorRuns[c][lo:hi] {
					t0 := time.Now()
					if err := run(); err != nil {
						b.Fatal(err)
					}
					floorTimes = append(floorTimes, time.Since(t0))
				}
			}
		}
		if r%2 == 0 {
			runService()
			runFloor()
		} else {
			runFloor()
			runService()
		}
	}
	b.StopTimer()
	service = float64(clients*perClient) / serviceTime.Seconds()
	if f.postgres {
		return service, float64(clients*perClient) / floorTime.Seconds()
	}
	return service, 1000 / ms(median(floorTimes))
}

// concurrently runs runs[c][lo:hi] for every client c at once and returns
// how long they took.
func concurrently(b *testing.B, runs [][]func() error, lo, hi int) time.Duration {
	var wg sync.WaitGroup
	var failed sync.Once
	start := time.Now()
	for c := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, run := range runs[c][lo:hi] {
				if err := run(); err != nil {
					failed.Do(func() { b.Error(err) })
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// durability names the settings that decide what a commit costs, so a run
// shows what it measured.
func durability(b *testing.B, db *bunstore.DB) string {
	ctx := apitest.Admin()
	var out string
	queries := []string{"PRAGMA journal_mode", "PRAGMA synchronous"}
	if db.Postgres() {
		queries = []string{"SHOW fsync", "SHOW synchronous_commit", "SHOW full_page_writes"}
	}
	for _, q := range queries {
		var v string
		if err := db.Bun().QueryRowContext(ctx, q).Scan(&v); err != nil {
			b.Fatal(err)
		}
		out += fmt.Sprintf("%s = %s; ", q, v)
	}
	return out
}
