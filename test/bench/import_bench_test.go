package bench_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkStockImport measures a 100 000-line CSV import over HTTP, end to
// end, in one transaction: every line changes one of the 100 000 seeded
// mappings (article SKUa on bin Bb, by code), so the import reads, locks and
// writes 100 000 mappings and 100 000 ledger entries. Run with fsync on:
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench StockImport -benchtime 3x
func BenchmarkStockImport(b *testing.B) {
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			url := testdb.SQLite(b)
			if database == "postgres" {
				url = testdb.Postgres(b)
			}
			server, _ := benchServer(b, url, true)
			bodies := [2][]byte{importBody(bench.Default, 1), importBody(bench.Default, -1)}
			b.SetBytes(int64(len(bodies[0])))
			b.ResetTimer()
			var total time.Duration
			for n := range b.N {
				// Quantities alternate in sign so stock stays level.
				url := fmt.Sprintf("%s/api/stock/import/change/import-bench-%d-%d", server, time.Now().UnixNano(), n)
				req, _ := http.NewRequest(http.MethodPut, url, bytes.NewReader(bodies[n%2]))
				req.SetBasicAuth("admin", "secret-test-key-0123")
				req.Header.Set("Content-Type", "text/csv")
				t0 := time.Now()
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				total += time.Since(t0)
				if want := fmt.Sprintf(`{"success":true,"data":{"lines":%d}}`, bench.Default.Bins*bench.Default.Articles); resp.StatusCode != http.StatusOK || string(out) != want {
					b.Fatalf("import failed: %d %s", resp.StatusCode, out[:min(len(out), 500)])
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/import")
			b.ReportMetric(float64(bench.Default.Bins*bench.Default.Articles*b.N)/total.Seconds(), "lines/s")
		})
	}
}

// importBody is a change import of quantity on every seeded mapping.
func importBody(s bench.Shape, quantity int) []byte {
	var sb strings.Builder
	sb.WriteString("warehouseCode,binLocationCode,articleDetailNumber,quantity\n")
	for a := 1; a <= s.Articles; a++ {
		for bin := 1; bin <= s.Bins; bin++ {
			fmt.Fprintf(&sb, "BENCH,B%d,SKU%d,%d\n", bin, a, quantity)
		}
	}
	return []byte(sb.String())
}
