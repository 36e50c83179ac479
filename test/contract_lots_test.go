package test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// The lots' storage contract: what a working set's lots and lot stock
// become in the database, read back by the next Load, by the mappings'
// views, by the lots' list and by the ledger, alike on both databases.

func lotDate(s string) *time.Time {
	t, err := stock.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return &t
}

// trackLots marks article details lot-tracked in the store itself (the
// article port's lotTracked is another test's concern).
func trackLots(t *testing.T, db *bunstore.DB, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		if _, err := db.Bun().NewUpdate().Table("article_details").Set("lot_tracked = ?", true).Where("id = ?", id).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

type lotState struct {
	article, bin    int64
	lot             string
	stock, reserved int
}

// lotsNow loads the mappings of articles 1 and 2 in both warehouses and
// lists what their lots hold, and the lots the working set knows.
func lotsNow(t *testing.T, db ports.UnitOfWork, p stockPlace) []lotState {
	t.Helper()
	scope := bothWarehouses(p)
	var out []lotState
	err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
		ws, err := s.Stock().Load(ctx, scope, contractNow)
		if err != nil {
			return err
		}
		out = nil
		for _, m := range ws.Mappings() {
			lots := m.Lots()
			slices.SortFunc(lots, func(a, b stock.LotStock) int { return compareText(a.Number, b.Number) })
			for _, l := range lots {
				out = append(out, lotState{m.ArticleDetailID(), m.BinLocationID(), l.Number, l.Stock, l.ReservedStock})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func compareText(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestLotRepositoryContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		p := newStockPlace(t, db)
		trackLots(t, db, 2)
		ref := stock.Reference{IdempotencyKey: "lots-1", User: "tester"}
		bin := func(id int64) stock.LocationSpec {
			return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
		}
		wh := func(id int64) stock.LocationSpec { return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: id}} }
		lot := func(number, bestBefore string) *stock.LotSpec {
			spec := &stock.LotSpec{Number: number}
			if bestBefore != "" {
				spec.BestBefore, spec.BestBeforeGiven = lotDate(bestBefore), true
			}
			return spec
		}

		t.Run("lots and what they hold per mapping are written and loaded back", func(t *testing.T) {
			errs := runOps(t, db, ref,
				stock.Change{ArticleDetailID: 2, At: bin(p.a), Quantity: 5, Lot: lot("L-B", "2026-12-01")},
				stock.Change{ArticleDetailID: 2, At: bin(p.a), Quantity: 3, Lot: lot("L-A", "2026-12-24")},
				stock.Change{ArticleDetailID: 2, At: bin(p.b), Quantity: 2, Lot: lot("L-N", "")},
				stock.Change{ArticleDetailID: 2, At: wh(p.wh2), Quantity: 4, Lot: lot("L-OLD", "2026-01-31")},
				stock.Change{ArticleDetailID: 1, At: bin(p.a), Quantity: 7},
			)
			for i, err := range errs {
				if err != nil {
					t.Fatalf("operation %d: %v", i, err)
				}
			}
			got := lotsNow(t, db, p)
			want := []lotState{{2, p.a, "L-A", 3, 0}, {2, p.a, "L-B", 5, 0}, {2, p.b, "L-N", 2, 0}, {2, p.null2, "L-OLD", 4, 0}}
			if !slices.Equal(got, want) {
				t.Errorf("lots per mapping\n got %+v\nwant %+v", got, want)
			}
		})

		t.Run("a stock-out rewrites the lots of the mapping, and an emptied lot leaves it", func(t *testing.T) {
			// FEFO: L-B (December 1st) goes before L-A.
			if errs := runOps(t, db, ref, stock.Change{ArticleDetailID: 2, At: bin(p.a), Quantity: -6}); errs[0] != nil {
				t.Fatal(errs[0])
			}
			got := lotsNow(t, db, p)
			want := []lotState{{2, p.a, "L-A", 2, 0}, {2, p.b, "L-N", 2, 0}, {2, p.null2, "L-OLD", 4, 0}}
			if !slices.Equal(got, want) {
				t.Errorf("lots per mapping\n got %+v\nwant %+v", got, want)
			}
			// Moving every piece off B-01 removes the mapping and its lot rows.
			if errs := runOps(t, db, ref, stock.Relocate{ArticleDetailID: 2, From: bin(p.b), To: bin(p.a), All: true}); errs[0] != nil {
				t.Fatal(errs[0])
			}
			got = lotsNow(t, db, p)
			want = []lotState{{2, p.a, "L-A", 2, 0}, {2, p.a, "L-N", 2, 0}, {2, p.null2, "L-OLD", 4, 0}}
			if !slices.Equal(got, want) {
				t.Errorf("after the move\n got %+v\nwant %+v", got, want)
			}
		})

		t.Run("the bin's mappings show their lots in FEFO order, [] for untracked products", func(t *testing.T) {
			var views []ports.MappingView
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				views, err = s.Stock().MappingsOfBinLocation(ctx, p.a)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(views) != 2 {
				t.Fatalf("%d mappings on A-01", len(views))
			}
			for _, v := range views {
				switch v.ArticleDetailID {
				case 1:
					if v.Lots == nil || len(v.Lots) != 0 {
						t.Errorf("untracked product's lots %#v, want empty", v.Lots)
					}
				case 2:
					if len(v.Lots) != 2 || v.Lots[0].Number != "L-A" || v.Lots[0].BestBefore == nil ||
						v.Lots[0].BestBefore.Format(stock.DateLayout) != "2026-12-24" || v.Lots[0].Stock != 2 ||
						v.Lots[1].Number != "L-N" || v.Lots[1].BestBefore != nil {
						t.Errorf("tracked product's lots %+v: the dated lot first, the undated last", v.Lots)
					}
				}
			}
		})

		list := func(t *testing.T, q ports.ListQuery) ports.Page[ports.LotView] {
			t.Helper()
			if q.Limit == 0 {
				q.Limit = 100
			}
			var page ports.Page[ports.LotView]
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				page, err = s.Lots().List(ctx, q)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return page
		}
		numbers := func(page ports.Page[ports.LotView]) []string {
			out := make([]string, len(page.Items))
			for i, v := range page.Items {
				out[i] = v.Lot.Number
			}
			return out
		}

		t.Run("the list orders by best-before (undated last), then number; an empty lot stays", func(t *testing.T) {
			page := list(t, ports.ListQuery{})
			if got, want := numbers(page), []string{"L-OLD", "L-B", "L-A", "L-N"}; !slices.Equal(got, want) || page.Total != 4 {
				t.Errorf("lots %v (total %d), want %v", got, page.Total, want)
			}
			byNumber := map[string]ports.LotView{}
			for _, v := range page.Items {
				byNumber[v.Lot.Number] = v
			}
			if b := byNumber["L-B"]; b.Stock != 0 || len(b.Locations) != 0 || b.Locations == nil || b.ID == 0 {
				t.Errorf("the emptied lot: %+v", b)
			}
			if n := byNumber["L-N"]; n.Stock != 2 || len(n.Locations) != 1 || n.Locations[0] != (ports.LotLocation{
				WarehouseID: p.wh1, BinLocationID: p.a, BinLocationCode: "A-01", Stock: 2}) {
				t.Errorf("the undated lot: %+v", n)
			}
			old := byNumber["L-OLD"]
			if old.Lot.BestBefore == nil || old.Lot.BestBefore.Format(stock.DateLayout) != "2026-01-31" || old.Lot.ArticleDetailID != 2 {
				t.Errorf("the old lot: %+v", old.Lot)
			}
			var one ports.LotView
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				one, err = s.Lots().Get(ctx, old.ID)
				return err
			})
			if err != nil || one.Lot.Number != "L-OLD" || one.Stock != 4 || len(one.Locations) != 1 || one.Locations[0].BinLocationID != p.null2 {
				t.Errorf("get %d: %+v, %v", old.ID, one, err)
			}
			err = db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
				_, err := s.Lots().Get(ctx, 999999)
				return err
			})
			if err == nil {
				t.Error("an unknown lot was found")
			}
		})

		t.Run("filters: article, number, best-before compared as dates, expired against today", func(t *testing.T) {
			cases := []struct {
				name    string
				filters []ports.Filter
				sorts   []ports.Sort
				want    []string
			}{
				{"article", []ports.Filter{{Property: "lot.articleDetailId", Values: []any{int64(2)}}}, nil, []string{"L-OLD", "L-B", "L-A", "L-N"}},
				{"other article", []ports.Filter{{Property: "lot.articleDetailId", Values: []any{int64(1)}}}, nil, []string{}},
				{"number like", []ports.Filter{{Property: "lot.number", Values: []any{"l-%"}}}, nil, []string{"L-OLD", "L-B", "L-A", "L-N"}},
				{"number exact", []ports.Filter{{Property: "lot.number", Expression: ports.ExprEqual, Values: []any{"L-A"}}}, nil, []string{"L-A"}},
				{"before", []ports.Filter{{Property: "lot.bestBefore", Expression: ports.ExprLess, Values: []any{"2026-12-24"}}}, nil, []string{"L-OLD", "L-B"}},
				{"on or after", []ports.Filter{{Property: "lot.bestBefore", Expression: ports.ExprGreaterEqual, Values: []any{"2026-12-01"}}}, nil, []string{"L-B", "L-A"}},
				{"equal", []ports.Filter{{Property: "lot.bestBefore", Values: []any{"2026-12-01"}}}, nil, []string{"L-B"}},
				{"in", []ports.Filter{{Property: "lot.bestBefore", Expression: ports.ExprIn, Values: []any{"2026-12-01", "2026-01-31"}}}, nil, []string{"L-OLD", "L-B"}},
				{"no date", []ports.Filter{{Property: "lot.bestBefore", Expression: ports.ExprIsNull}}, nil, []string{"L-N"}},
				// L-OLD came in expired, so its expiry is counted from the start;
				// L-B's best-before has passed too, but its expiry is not
				// counted yet (see "expiry counted is written back").
				{"expired", []ports.Filter{{Property: "lot.expired", Values: []any{true}}}, nil, []string{"L-OLD"}},
				{"not expired", []ports.Filter{{Property: "lot.expired", Values: []any{false}}}, nil, []string{"L-B", "L-A", "L-N"}},
				{"sorted by best-before descending: undated first", nil, []ports.Sort{{Property: "lot.bestBefore", Descending: true}}, []string{"L-N", "L-A", "L-B", "L-OLD"}},
				{"sorted by number", nil, []ports.Sort{{Property: "lot.number"}}, []string{"L-A", "L-B", "L-N", "L-OLD"}},
			}
			for _, c := range cases {
				page := list(t, ports.ListQuery{Filters: c.filters, Sorts: c.sorts})
				if got := numbers(page); !slices.Equal(got, c.want) || page.Total != len(c.want) {
					t.Errorf("%s: %v (total %d), want %v", c.name, got, page.Total, c.want)
				}
			}
			page := list(t, ports.ListQuery{Start: 1, Limit: 2})
			if got := numbers(page); !slices.Equal(got, []string{"L-B", "L-A"}) || page.Total != 4 {
				t.Errorf("second page: %v (total %d)", got, page.Total)
			}
			var found []ports.LotView
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				found, err = s.Lots().Numbered(ctx, "L-A")
				return err
			})
			if err != nil || len(found) != 1 || found[0].Stock != 2 || found[0].Lot.ArticleDetailID != 2 {
				t.Errorf("numbered L-A: %+v, %v", found, err)
			}
		})

		t.Run("the ledger names the lot, NULL for untracked products, and filters by it", func(t *testing.T) {
			var page ports.Page[ports.LedgerRecord]
			read := func(filters ...ports.Filter) {
				t.Helper()
				err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
					page, err = s.Ledger().List(ctx, ports.ListQuery{Limit: 100, Filters: filters})
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			read(ports.Filter{Property: "stockLedgerEntry.lotNumber", Values: []any{"l-a"}})
			if page.Total != 2 || page.Items[0].LotNumber != "L-A" || page.Items[0].Quantity != 3 || page.Items[1].Quantity != -1 {
				t.Errorf("entries of L-A (in, and out by FEFO after L-B): %+v", page.Items)
			}
			read(ports.Filter{Property: "stockLedgerEntry.lotNumber", Expression: ports.ExprEqual, Values: []any{"L-B"}})
			if page.Total != 2 {
				t.Errorf("entries of L-B: %d, want in and out", page.Total)
			}
			read(ports.Filter{Property: "stockLedgerEntry.lotNumber", Expression: ports.ExprIsNull})
			if page.Total != 1 || page.Items[0].ArticleDetailID != 1 || page.Items[0].LotNumber != "" {
				t.Errorf("entries without a lot: %+v", page.Items)
			}
		})

		t.Run("expiry counted is written back", func(t *testing.T) {
			var scope stock.Scope
			scope.Add(2, wh(p.wh1))
			scope.Add(2, wh(p.wh2))
			lotsOn := func(now time.Time) (out map[string]stock.Lot) {
				write(t, db, func(ctx context.Context, s ports.Store) error {
					ws, err := s.Stock().Load(ctx, scope, now)
					if err != nil {
						return err
					}
					out = map[string]stock.Lot{}
					for _, n := range []string{"L-A", "L-B", "L-N", "L-OLD"} {
						out[n], _ = ws.Lot(2, n)
					}
					return nil
				})
				return out
			}
			before := lotsOn(contractNow)
			// L-OLD came in expired: counted from its creation.
			if !before["L-OLD"].ExpiryCounted || before["L-B"].ExpiryCounted || before["L-A"].ExpiryCounted || before["L-N"].BestBefore != nil {
				t.Errorf("lots as created: %+v", before)
			}
			dec2 := time.Date(2026, 12, 2, 0, 1, 0, 0, time.UTC)
			write(t, db, func(ctx context.Context, s ports.Store) error {
				ws, err := s.Stock().Load(ctx, scope, dec2)
				if err != nil {
					return err
				}
				if got := ws.RecordExpiry(2); len(got) != 1 || got[0].Number != "L-B" {
					t.Errorf("lots expired on December 2nd: %+v", got)
				}
				return s.Stock().Save(ctx, ws)
			})
			after := lotsOn(dec2)
			if !after["L-B"].ExpiryCounted || after["L-A"].ExpiryCounted || after["L-B"].BestBefore == nil ||
				after["L-B"].BestBefore.Format(stock.DateLayout) != "2026-12-01" {
				t.Errorf("lots after the expiry: %+v", after)
			}
			// The list's expired follows what was counted, as the figures do.
			expired := list(t, ports.ListQuery{Filters: []ports.Filter{{Property: "lot.expired", Values: []any{true}}}})
			if got := numbers(expired); !slices.Equal(got, []string{"L-OLD", "L-B"}) {
				t.Errorf("expired lots after the expiry: %v", got)
			}
		})
	})
}
