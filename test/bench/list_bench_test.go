package bench_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkListAtVolume measures list requests over HTTP against a million
// ledger entries, 100 000 mappings, a thousand warehouses and a warehouse of
// 100 000 bins, at the first page and at a deep offset, 100 rows a page.
// Each request also counts its matches (`total`). A list that stays
// O(limit) costs about the same at both offsets and on every volume.
//
//	go test ./test/bench -run '^$' -bench ListAtVolume -benchtime 20x
func BenchmarkListAtVolume(b *testing.B) {
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			url := testdb.SQLite(b)
			if database == "postgres" {
				url = testdb.Postgres(b)
			}
			server, db := benchServer(b, url, true)
			t0 := time.Now()
			if err := bench.SeedVolume(apitest.Admin(), db, bench.Default, bench.DefaultVolume); err != nil {
				b.Fatal(err)
			}
			b.Logf("seeded %+v in %v", bench.DefaultVolume, time.Since(t0).Round(time.Millisecond))
			perArticle := bench.DefaultVolume.LedgerEntries / bench.Default.Articles
			for _, l := range []struct {
				name, path string
				total      int
			}{
				{"ledger-by-article", "/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.articleDetailId&filter[0][value]=7", perArticle},
				{"ledger", "/api/stockLedgerEntries?", bench.DefaultVolume.LedgerEntries},
				{"warehouses", "/api/warehouses?", bench.DefaultVolume.Warehouses + 1},
				{"bins-by-warehouse", "/api/binLocations?filter[0][property]=binLocation.warehouseId&filter[0][value]=2", bench.DefaultVolume.BigBins + 1},
			} {
				for _, start := range []int{0, l.total * 9 / 10} {
					page := "first"
					if start > 0 {
						page = "deep"
					}
					b.Run(l.name+"/"+page, func(b *testing.B) {
						path := fmt.Sprintf("%s&start=%d&limit=100", l.path, start)
						for b.Loop() {
							if err := list(server, path, l.total); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		})
	}
}

func list(server, path string, total int) error {
	req, err := http.NewRequest(http.MethodGet, server+path, nil)
	if err != nil {
		return err
	}
	req.SetBasicAuth("admin", "secret-test-key-0123")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), fmt.Sprintf(`"total":%d`, total)) {
		return fmt.Errorf("GET %s: %d %.300s", path, resp.StatusCode, body)
	}
	return nil
}
