package test

import (
	"context"
	"slices"
	"testing"

	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// The scan finder's contract, on both databases: one statement finds every
// record a scanned text names exactly, numbers and codes ignoring case,
// lots as written, products by any spelling of their GTIN.
func TestScanFinderContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		p := newStockPlace(t, db) // WH1 with A-01 and B-01, WH2; SKU1 and SKU2
		trackLots(t, db, 2)
		var westA01 int64
		write(t, db, func(ctx context.Context, s ports.Store) error {
			b, err := warehouse.NewBinLocation(p.wh2, "A-01")
			if err != nil {
				return err
			}
			if err := s.BinLocations().Add(ctx, b); err != nil {
				return err
			}
			westA01 = b.ID()
			a, err := catalog.NewArticleDetail(3, "a-01", "")
			if err != nil {
				return err
			}
			if err := a.SetEAN("4006381333931"); err != nil {
				return err
			}
			if err := s.ArticleDetails().Add(ctx, a); err != nil {
				return err
			}
			o, err := order.New(order.NewOrder{ID: 50, Number: "A-01", Details: []order.NewDetail{{ArticleDetailID: 1, Quantity: 1}}})
			if err != nil {
				return err
			}
			if err := s.Orders().Add(ctx, o); err != nil {
				return err
			}
			po, err := purchase.New(purchase.NewOrder{ID: 60, Number: "a-01", WarehouseID: p.wh1,
				Lines: []purchase.NewLine{{ArticleDetailID: 1, Quantity: 1}}}, contractNow)
			if err != nil {
				return err
			}
			return s.PurchaseOrders().Add(ctx, po)
		})
		at := stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: p.a}}
		for i, err := range runOps(t, db, stock.Reference{IdempotencyKey: "scan-1", User: "tester"},
			stock.Change{ArticleDetailID: 2, At: at, Quantity: 1, Lot: &stock.LotSpec{Number: "A-01"}},
			stock.Change{ArticleDetailID: 2, At: at, Quantity: 1, Lot: &stock.LotSpec{Number: "a-01x"}},
		) {
			if err != nil {
				t.Fatalf("operation %d: %v", i, err)
			}
		}
		var lotID int64
		if err := db.Bun().NewSelect().TableExpr("lots").ColumnExpr("id").Where("number = 'A-01'").Scan(context.Background(), &lotID); err != nil {
			t.Fatal(err)
		}
		named := func(text string, eans []string) []ports.ScanHit {
			t.Helper()
			var hits []ports.ScanHit
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				hits, err = s.Scans().Named(ctx, text, eans)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return hits
		}

		t.Run("every kind, in its order", func(t *testing.T) {
			got := named("A-01", barcode.GTIN("04006381333931").Spellings())
			want := []ports.ScanHit{
				{Kind: ports.HitProduct, ID: 3, Code: "a-01"},
				{Kind: ports.HitBinLocation, ID: p.a, Code: "A-01", ParentID: p.wh1, ParentCode: "WH1"},
				{Kind: ports.HitBinLocation, ID: westA01, Code: "A-01", ParentID: p.wh2, ParentCode: "WH2"},
				{Kind: ports.HitOrder, ID: 50, Code: "A-01"},
				{Kind: ports.HitPurchaseOrder, ID: 60, Code: "a-01"},
				{Kind: ports.HitLot, ID: lotID, Code: "A-01", ParentID: 2, ParentCode: "SKU2"},
				{Kind: ports.HitProduct, ID: 3, Code: "a-01", ByEAN: true},
			}
			if !slices.Equal(got, want) {
				t.Errorf("hits\n got %+v\nwant %+v", got, want)
			}
		})

		t.Run("lots as written, numbers ignoring case", func(t *testing.T) {
			got := named("a-01", nil)
			for _, h := range got {
				if h.Kind == ports.HitLot || h.ByEAN {
					t.Errorf("a-01 finds %+v", h)
				}
			}
			if len(got) != 5 {
				t.Errorf("a-01 finds %d records, want the product, two bins, the order and the purchase order: %+v", len(got), got)
			}
		})

		t.Run("eans compare as stored, and nothing finds nothing", func(t *testing.T) {
			got := named("4006381333931", []string{"04006381333931"})
			if len(got) != 0 {
				t.Errorf("an ean spelled otherwise than stored: %+v", got)
			}
			got = named("4006381333931", barcode.GTIN("4006381333931").Spellings())
			if !slices.Equal(got, []ports.ScanHit{{Kind: ports.HitProduct, ID: 3, Code: "a-01", ByEAN: true}}) {
				t.Errorf("by ean: %+v", got)
			}
			if got := named("nothing-like-it", nil); len(got) != 0 {
				t.Errorf("nothing: %+v", got)
			}
			if got := named("SKU", nil); len(got) != 0 {
				t.Errorf("a part of a number names nothing: %+v", got)
			}
		})
	})
}
