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
// machine: a page of 50 products with their figures, as a reader that
// sends no position (the standby) and one that sends a position no
// replica has reached (the primary).
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
	eventually(b, 10*time.Second, "the standby has the products", func() bool {
		status, _, _ := reader.send(b, "GET", fmt.Sprintf("/api/articleDetails/%d", last), nil, "")
		_, replicas := db.ReadStats()
		return status == http.StatusOK && replicas[0].Usable
	})
	for _, c := range []struct{ name, position string }{{"replica", ""}, {"primary", "FFFFFFFF/FFFFFFFF"}} {
		b.Run(c.name, func(b *testing.B) {
			primaryBefore, replicas := db.ReadStats()
			replicaBefore := replicas[0].Reads
			for range b.N {
				if status, _, body := reader.send(b, "GET", "/api/articleDetails?limit=50", nil, c.position); status != http.StatusOK {
					b.Fatalf("%d %v", status, body)
				}
			}
			primary, replicas := db.ReadStats()
			b.ReportMetric(float64(replicas[0].Reads-replicaBefore)/float64(b.N), "replica-reads/op")
			b.ReportMetric(float64(primary-primaryBefore)/float64(b.N), "primary-reads/op")
		})
	}
}
