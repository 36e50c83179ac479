package bench_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
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
//     b.N batches from 4 clients; on SQLite, which admits one writer at a
//     time, the floor is 1000 / the floor's median at 1 client, measured in
//     the same sub-benchmark. of-floor = service / floor (the goal is at
//     least 0.8).
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
			server, db := benchServer(b, url)
			f := newFloor(b, url, db)
			b.Logf("durability: %s", durability(b, db))
			b.Run("clients=1", func(b *testing.B) {
				service, floor := alternate(b, server, f)
				b.ReportMetric(ms(median(service)), "service-ms")
				b.ReportMetric(ms(median(floor)), "floor-ms")
				b.ReportMetric(ms(median(service))/ms(median(floor)), "x-floor")
			})
			b.Run("clients=4", func(b *testing.B) {
				service := throughput(b, 4, func(c, n int, key string) func() error {
					body, err := bench.ChangeBatch(bench.Default, c, 4, n, 1000)
					if err != nil {
						b.Fatal(err)
					}
					return func() error { return sendBatch(server, key, body) }
				})
				var floorRate float64
				if f.postgres {
					floorRate = throughput(b, 4, floorRun(b, f, 4))
				} else {
					_, floorTimes := alternate(b, "", f)
					floorRate = 1000 / ms(median(floorTimes))
				}
				b.ReportMetric(service, "service-batches/s")
				b.ReportMetric(floorRate, "floor-batches/s")
				b.ReportMetric(service/floorRate, "of-floor")
			})
		})
	}
}

var floorSeq int

func nextKey(kind string) string {
	floorSeq++
	return fmt.Sprintf("%s-%d-%d", kind, time.Now().UnixNano(), floorSeq)
}

// floorRun prepares floor batches for throughput.
func floorRun(b *testing.B, f floor, clients int) func(c, n int, key string) func() error {
	return func(c, n int, key string) func() error {
		fb, err := newFloorBatch(bench.Default, key, c, clients, n)
		if err != nil {
			b.Fatal(err)
		}
		return func() error { return f.run(context.Background(), fb) }
	}
}

// alternate runs b.N service batches and b.N floor batches from one client,
// one of each in turn (which goes first alternates too), and returns their
// durations. An empty server runs the floor alone.
func alternate(b *testing.B, server string, f floor) (service, floor []time.Duration) {
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
			if p.body, err = bench.ChangeBatch(bench.Default, 0, 1, n, 1000); err != nil {
				b.Fatal(err)
			}
		}
		if p.fb, err = newFloorBatch(bench.Default, nextKey("floor"), 0, 1, n); err != nil {
			b.Fatal(err)
		}
		pairs[n] = p
	}
	ctx := context.Background()
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

// throughput runs b.N batches from clients concurrent clients (each its own
// articles) and returns batches per second. prepare builds client c's n-th
// batch before the clock starts.
func throughput(b *testing.B, clients int, prepare func(c, n int, key string) func() error) float64 {
	perClient := (b.N + clients - 1) / clients
	runs := make([][]func() error, clients)
	for c := range clients {
		for n := range perClient {
			runs[c] = append(runs[c], prepare(c, n, nextKey("throughput")))
		}
	}
	var wg sync.WaitGroup
	var failed sync.Once
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, run := range runs[c] {
				if err := run(); err != nil {
					failed.Do(func() { b.Error(err) })
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	return float64(clients*perClient) / elapsed.Seconds()
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
	ctx := context.Background()
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
