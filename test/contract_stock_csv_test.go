package test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

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
