package bench_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

type utcClock struct{}

func (utcClock) Now() time.Time { return time.Now().UTC() }

// BenchmarkChangeBatch measures a 1000-operation change batch over HTTP,
// end to end, against 100 000 existing mappings, with 1 and 4 clients, with
// events recorded (as the service runs) and without (to show their cost).
// Run with fsync on for figures that mean something:
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench ChangeBatch -benchtime 200x
func BenchmarkChangeBatch(b *testing.B) {
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			url := testdb.SQLite(b)
			if database == "postgres" {
				url = testdb.Postgres(b)
			}
			serve := func(seed bool, opts ...application.Option) string {
				u, _ := benchServer(b, url, seed, opts...)
				return u
			}
			servers := map[string]string{
				"on":  serve(true),
				"off": serve(false, application.WithoutEvents()),
			}
			for _, clients := range []int{1, 4} {
				for _, events := range []string{"off", "on"} {
					b.Run(fmt.Sprintf("events=%s/clients=%d", events, clients), func(b *testing.B) {
						runChangeBatches(b, servers[events], clients)
					})
				}
			}
		})
	}
}

// benchServer opens a fresh database, seeds it when asked, and serves the API on it.
func benchServer(b *testing.B, url string, seed bool, opts ...application.Option) (string, *bunstore.DB) {
	ctx := apitest.Admin()
	db, err := bunstore.Open(url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	// Cleanups run last in, first out: the server stops before the pool.
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	if seed {
		if err := bench.Seed(ctx, db, bench.Default); err != nil {
			b.Fatal(err)
		}
	}
	app := application.New(db, utcClock{}, apitest.Secrets(b), opts...)
	if _, err := app.EnsureAPIUser(ctx, "admin", "secret-test-key-0123"); err != nil {
		b.Fatal(err)
	}
	h, err := httpapi.NewHandler(app, zap.NewNop(), httpapi.Config{}, db.Ping, prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	return srv.URL, db
}

var batchSeq int

func runChangeBatches(b *testing.B, server string, clients int) {
	bodies := make([][][]byte, clients)
	perClient := (b.N + clients - 1) / clients
	for c := range clients {
		for n := range perClient {
			body, err := bench.ChangeBatch(bench.Default, c, clients, n, 1000)
			if err != nil {
				b.Fatal(err)
			}
			bodies[c] = append(bodies[c], body)
		}
	}
	batchSeq++
	var mu sync.Mutex
	var durations []time.Duration
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n, body := range bodies[c] {
				t0 := time.Now()
				if err := sendBatch(server, fmt.Sprintf("bench-%d-%d-%d-%d", batchSeq, clients, c, n), body); err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				durations = append(durations, time.Since(t0))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if len(durations) == 0 {
		return
	}
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "ms/batch-median")
	b.ReportMetric(float64(durations[len(durations)*95/100].Microseconds())/1000, "ms/batch-p95")
	b.ReportMetric(float64(len(durations)*1000)/elapsed.Seconds(), "ops/s")
}

// sendBatch puts one change batch under the idempotency key and checks
// that every operation succeeded.
func sendBatch(server, key string, body []byte) error {
	req, err := http.NewRequest(http.MethodPut, server+"/api/stock/change/"+key, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.SetBasicAuth("admin", "secret-test-key-0123")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(out, []byte(`"success":true`)) {
		return fmt.Errorf("batch failed: %d %s", resp.StatusCode, out[:min(len(out), 300)])
	}
	return nil
}
