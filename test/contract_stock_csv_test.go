package test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// The contract of the ports the stock CSV needs: the export's rows in order
// and the look-up of article details by number, alike on both dialects.

func TestStockExportContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		p := newStockPlace(t, db)
		ref := stock.Reference{IdempotencyKey: "k1", User: "tester"}
		bin := func(id int64) stock.LocationSpec {
			return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
		}
		runOps(t, db, ref,
			stock.Change{ArticleDetailID: 2, At: bin(p.b), Quantity: 1},
			stock.Change{ArticleDetailID: 1, At: bin(p.null2), Quantity: 2},
			stock.Set{ArticleDetailID: 1, At: bin(p.b), Quantity: 3},
			stock.Change{ArticleDetailID: 2, At: bin(p.a), Quantity: 4},
			stock.Change{ArticleDetailID: 1, At: bin(p.a), Quantity: 5},
		)
		each := func(warehouseID int64, stopAfter int) ([]ports.StockExportRow, error) {
			var rows []ports.StockExportRow
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
				return s.Stock().EachMapping(ctx, warehouseID, func(r ports.StockExportRow) error {
					rows = append(rows, r)
					if len(rows) == stopAfter {
						return errStop
					}
					return nil
				})
			})
			return rows, err
		}
		rows, err := each(0, 0)
		if err != nil {
			t.Fatal(err)
		}
		type line struct {
			wh, bin, number string
			article         int64
			stock           int
			stocktake       bool
		}
		var got []line
		for _, r := range rows {
			got = append(got, line{r.WarehouseCode, r.BinLocationCode, r.ArticleDetailNumber, r.ArticleDetailID, r.Stock, r.LastStockTake != nil})
			if r.LastStockTake != nil && !r.LastStockTake.Equal(contractNow) {
				t.Errorf("lastStockTake %v, want %v", r.LastStockTake, contractNow)
			}
		}
		want := []line{
			{"WH1", "A-01", "SKU1", 1, 5, false},
			{"WH1", "A-01", "SKU2", 2, 4, false},
			{"WH1", "B-01", "SKU1", 1, 3, true},
			{"WH1", "B-01", "SKU2", 2, 1, false},
			{"WH2", "erp_null_bin_location", "SKU1", 1, 2, false},
		}
		if !slices.Equal(got, want) {
			t.Errorf("rows\n got %+v\nwant %+v", got, want)
		}
		if rows, err := each(p.wh2, 0); err != nil || len(rows) != 1 || rows[0].WarehouseCode != "WH2" {
			t.Errorf("rows of WH2: %+v, %v", rows, err)
		}
		if rows, err := each(0, 2); !errors.Is(err, errStop) || len(rows) != 2 {
			t.Errorf("an error of fn stops the rows: %d rows, %v", len(rows), err)
		}
	})
}

var errStop = errors.New("stop")

func TestArticleNumbersContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		newStockPlace(t, db)
		var got map[string]int64
		err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
			got, err = s.ArticleDetails().IDsByNumber(ctx, []string{"SKU2", "SKU404", "SKU1", "SKU2", "sku1", ""})
			return err
		})
		if want := map[string]int64{"SKU1": 1, "SKU2": 2}; err != nil || !maps.Equal(got, want) {
			t.Errorf("IDsByNumber = %v, %v; want %v (numbers match exactly)", got, err, want)
		}
		err = db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
			got, err = s.ArticleDetails().IDsByNumber(ctx, nil)
			return err
		})
		if err != nil || len(got) != 0 {
			t.Errorf("no numbers: %v, %v", got, err)
		}
	})
}

// The export of a lot-tracked product: one row per mapping and lot, with
// the lot's figures, in FEFO order within the mapping; a mapping that holds
// no lot (an empty default mapping) is one row without a lot. The lots are
// written as rows, as storage keeps them, so that the export's statement is
// checked on its own.
func TestStockExportContractLots(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		p := newStockPlace(t, db)
		ref := stock.Reference{IdempotencyKey: "k1", User: "tester"}
		bin := func(id int64) stock.LocationSpec {
			return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
		}
		runOps(t, db, ref,
			stock.Change{ArticleDetailID: 2, At: bin(p.a), Quantity: 9},
			stock.SetDefault{ArticleDetailID: 2, BinLocationID: p.b, Default: true},
			stock.Change{ArticleDetailID: 1, At: bin(p.a), Quantity: 1},
		)
		ctx := context.Background()
		exec := func(query string, args ...any) {
			t.Helper()
			if _, err := db.Bun().ExecContext(ctx, query, args...); err != nil {
				t.Fatalf("%s: %v", query, err)
			}
		}
		exec("UPDATE article_details SET lot_tracked = TRUE WHERE id = 2")
		for _, l := range []struct {
			number     string
			bestBefore any
			stock, res int
		}{
			{"L-none", nil, 1, 0},
			{"L-late", "2027-06-01", 2, 1},
			{"L-early", "2027-01-31", 3, 0},
			{"L-b", nil, 3, 2},
			{"L-gone", "2026-01-01", 0, 0}, // its last piece left: kept for tracing, not exported
		} {
			exec("INSERT INTO lots (article_detail_id, number, best_before, created_at) VALUES (2, ?, ?, ?)", l.number, l.bestBefore, contractNow)
			exec("INSERT INTO lot_stock (article_detail_id, bin_location_id, warehouse_id, lot_number, stock, reserved_stock) VALUES (2, ?, ?, ?, ?, ?)",
				p.a, p.wh1, l.number, l.stock, l.res)
		}
		exec("UPDATE stock_mappings SET reserved_stock = 3 WHERE article_detail_id = 2 AND bin_location_id = ?", p.a)
		var got [][]string
		err := db.Read(ctx, func(ctx context.Context, s ports.Store) error {
			return s.Stock().EachMapping(ctx, 0, func(r ports.StockExportRow) error {
				bestBefore := "-"
				if r.BestBefore != nil {
					if r.BestBefore.Location() != time.UTC || r.BestBefore.Hour() != 0 {
						t.Errorf("best-before %v, want UTC midnight", r.BestBefore)
					}
					bestBefore = r.BestBefore.Format(stock.DateLayout)
				}
				got = append(got, []string{r.BinLocationCode, r.ArticleDetailNumber, fmt.Sprint(r.Stock), fmt.Sprint(r.ReservedStock),
					fmt.Sprint(r.DefaultMapping), r.LotNumber, bestBefore})
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		want := [][]string{
			{"A-01", "SKU1", "1", "0", "false", "", "-"},
			{"A-01", "SKU2", "3", "0", "false", "L-early", "2027-01-31"},
			{"A-01", "SKU2", "2", "1", "false", "L-late", "2027-06-01"},
			{"A-01", "SKU2", "3", "2", "false", "L-b", "-"},
			{"A-01", "SKU2", "1", "0", "false", "L-none", "-"},
			{"B-01", "SKU2", "0", "0", "true", "", "-"},
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("rows\n got %q\nwant %q", got, want)
		}
	})
}
