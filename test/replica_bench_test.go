package test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkReplicaReads weighs a read served by the standby against the
// same read served by the primary, on one instance of a pair on this
// machine: a page of 50 products with their figures, read in turn as a
// reader that sends no position (the standby) and as one that sends a
// position no replica has reached (the primary).
//
//	go test ./test -run '^$' -bench ReplicaReads -benchtime 2000x -count 4
func BenchmarkReplicaReads(b *testing.B) {
	pair := testdb.StartReplicated(b)
	db, err := bunstore.Open(pair.Primary)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		b.Fatal(err)
	}
	if err := db.UseReplicas([]string{pair.Standby}, time.Minute); err != nil {
		b.Fatal(err)
	}
	app := application.New(db, feedClock{}, apitest.Secrets(b))
	if _, err := app.EnsureAPIUser(apitest.Admin(), apitest.User, apitest.Key); err != nil {
		b.Fatal(err)
	}
	h, err := httpapi.NewHandler(app, zap.NewNop(), httpapi.Config{}, db.Ping, prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	admin := replicaClient{srv.URL, apitest.User, apitest.Key}
	status, _, body := admin.send(b, "POST", "/api/users", map[string]any{"name": "rita", "role": "reader"}, "")
	if status != http.StatusCreated {
		b.Fatalf("reader: %d %v", status, body)
	}
	reader := replicaClient{srv.URL, "rita", body["data"].(map[string]any)["key"].(string)}
	var last int64
	for i := range 50 {
		_, _, body := admin.send(b, "POST", "/api/articleDetails", map[string]any{"number": fmt.Sprintf("B-%02d", i)}, "")
		last = int64(body["data"].(map[string]any)["id"].(float64))
	}
	// A shop's products are old rows, vacuumed long ago.
	pair.Settle(b)
	eventually(b, 10*time.Second, "the standby has the products", func() bool {
		status, _, _ := reader.send(b, "GET", fmt.Sprintf("/api/articleDetails/%d", last), nil, "")
		_, replicas := db.ReadStats()
		return status == http.StatusOK && replicas[0].Usable
	})
	// The two reads alternate, so that both meet the same load.
	var took [2]time.Duration
	primaryBefore, replicas := db.ReadStats()
	replicaBefore := replicas[0].Reads
	b.ResetTimer()
	for n := range b.N {
		for i := range 2 {
			target := (n + i) % 2 // 0: the standby, 1: the primary
			position := ""
			if target == 1 {
				position = "FFFFFFFF/FFFFFFFF"
			}
			start := time.Now()
			if status, _, body := reader.send(b, "GET", "/api/articleDetails?limit=50", nil, position); status != http.StatusOK {
				b.Fatalf("%d %v", status, body)
			}
			took[target] += time.Since(start)
		}
	}
	primary, replicas := db.ReadStats()
	if got := replicas[0].Reads - replicaBefore; got != uint64(b.N) {
		b.Errorf("%d reads from the standby, want %d", got, b.N)
	}
	if got := primary - primaryBefore; got != 3*uint64(b.N) {
		b.Errorf("%d reads from the primary, want %d (every request's credential check, and the reads sent there)", got, 3*b.N)
	}
	b.ReportMetric(float64(took[0].Microseconds())/float64(b.N)/1000, "ms/replica-read")
	b.ReportMetric(float64(took[1].Microseconds())/float64(b.N)/1000, "ms/primary-read")
	b.ReportMetric(float64(took[0])/float64(took[1]), "replica/primary")
}
