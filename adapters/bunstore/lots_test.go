package bunstore

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/schema"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

func TestLotDateReadsWhatEitherDatabaseAnswers(t *testing.T) {
	want := time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)
	for _, src := range []any{want, time.Date(2026, 12, 24, 0, 0, 0, 0, time.FixedZone("CET", 3600)), "2026-12-24", []byte("2026-12-24"), "2026-12-24T00:00:00Z"} {
		var d lotDate
		if err := d.Scan(src); err != nil || d.t == nil || !d.t.Equal(want) {
			t.Errorf("Scan(%#v) = %v, %v; want %v", src, d.t, err, want)
		}
	}
	d := lotDate{t: &want}
	if err := d.Scan(nil); err != nil || d.t != nil {
		t.Errorf("Scan(nil) = %v, %v; want no date", d.t, err)
	}
	for _, bad := range []any{"soon", int64(5)} {
		if err := new(lotDate).Scan(bad); err == nil {
			t.Errorf("Scan(%#v) accepted", bad)
		}
	}
	if dateArg(nil) != nil || dateArg(&want) != "2026-12-24" {
		t.Errorf("dateArg: %v, %v", dateArg(nil), dateArg(&want))
	}
}

// On PostgreSQL the locations' statement reads which products exist and
// which are lot-tracked, without their lock; the working set is built from
// that, and should the lock find otherwise, the attempt starts over.
func TestPostgresLoadsTheLotsOfWhatTheLockFinds(t *testing.T) {
	db := migratedDB(t, testdb.Postgres(t))
	ctx := context.Background()
	if _, err := db.bun.ExecContext(ctx, `INSERT INTO warehouses (id, code, name) VALUES (1, 'W', 'W');
INSERT INTO bin_locations (id, warehouse_id, code) VALUES (10, 1, 'A');
INSERT INTO article_details (id, number, lot_tracked) VALUES (1, 'TRACKED', TRUE), (2, 'PLAIN', FALSE);
INSERT INTO lots (article_detail_id, number, best_before, created_at) VALUES (1, 'L1', '2030-01-01', now());
INSERT INTO stock_mappings (bin_location_id, warehouse_id, article_detail_id, stock) VALUES (10, 1, 1, 5), (10, 1, 2, 3);
INSERT INTO lot_stock (article_detail_id, bin_location_id, warehouse_id, lot_number, stock) VALUES (1, 10, 1, 'L1', 5)`); err != nil {
		t.Fatal(err)
	}
	// load reads the locations and then locks and loads, as Load does,
	// with what the locations found replaced by believed when it is set.
	load := func(article int64, believed *foundArticles) (*foundArticles, *stock.WorkingSet, error) {
		t.Helper()
		var found *foundArticles
		var ws *stock.WorkingSet
		err := db.dialect.attempt(ctx, db, func(ctx context.Context, s ports.Store) error {
			st := s.(*store)
			var scope stock.Scope
			scope.Add(article, stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: 10}})
			warehouses, bins, f, err := st.db.dialect.locations(ctx, st, scope.Locations(), scope.Articles())
			if err != nil {
				return err
			}
			found = f
			if believed != nil {
				f = believed
			}
			ws, err = st.db.dialect.lockAndLoad(ctx, st, scope, time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC), warehouses, bins, f)
			return err
		})
		return found, ws, err
	}
	found, ws, err := load(2, nil)
	if err != nil || !slices.Equal(found.existing, []int64{2}) || len(found.tracked) != 0 || ws.LotTracked(2) || len(ws.Mappings()) != 1 || ws.Mappings()[0].Stock() != 3 {
		t.Fatalf("untracked: found %+v, %v", found, err)
	}
	found, ws, err = load(1, nil)
	if err != nil || !slices.Equal(found.tracked, []int64{1}) {
		t.Fatalf("tracked: found %+v, %v", found, err)
	}
	l, ok := ws.Lot(1, "L1")
	if !ws.LotTracked(1) || !ok || l.BestBefore == nil || l.BestBefore.Format(stock.DateLayout) != "2030-01-01" {
		t.Errorf("tracked %v, lot %+v %v", ws.LotTracked(1), l, ok)
	}
	if ms := ws.Mappings(); len(ms) != 1 || !slices.Equal(ms[0].Lots(), []stock.LotStock{{Number: "L1", Stock: 5}}) {
		t.Errorf("mappings %v", ms)
	}
	for _, believed := range []*foundArticles{{existing: []int64{1}}, {}} {
		if _, _, err := load(1, believed); !errors.Is(err, errArticlesChanged) || !retryable(err) {
			t.Errorf("believing %+v: %v, want the attempt started over", believed, err)
		}
	}
}

// A key of several columns: the placeholders of the values every row
// shares come in the text's order (the set ones, the arrays, then the key's).
func TestPgColumnsUpdateByAKeyOfSeveralColumns(t *testing.T) {
	rows := []lotStockRow{{ArticleDetailID: 7, BinLocationID: 1, LotNumber: "L", Stock: 5, ReservedStock: 0},
		{ArticleDetailID: 7, BinLocationID: 2, LotNumber: "L", Stock: 6, ReservedStock: 0}}
	var c pgColumns
	pgColumn(&c, rows, "article_detail_id", "bigint", func(r *lotStockRow) int64 { return r.ArticleDetailID })
	pgColumn(&c, rows, "bin_location_id", "bigint", func(r *lotStockRow) int64 { return r.BinLocationID })
	pgColumn(&c, rows, "lot_number", "text", func(r *lotStockRow) string { return r.LotNumber })
	pgColumn(&c, rows, "stock", "int", func(r *lotStockRow) int64 { return int64(r.Stock) })
	pgColumn(&c, rows, "reserved_stock", "int", func(r *lotStockRow) int64 { return int64(r.ReservedStock) })
	got := c.updateKeyed("lot_stock", "ls", 3)
	want := "UPDATE lot_stock AS ls SET stock = u.stock, reserved_stock = ?::int FROM unnest(?::bigint[], ?::int[]) AS u(bin_location_id, stock)" +
		" WHERE ls.article_detail_id = ?::bigint AND ls.bin_location_id = u.bin_location_id AND ls.lot_number = ?::text"
	if got != want {
		t.Errorf("statement\n got %s\nwant %s", got, want)
	}
	gen := pgdialect.New()
	text := string(schema.NewQueryGen(gen).FormatQuery(got, c.args...))
	if want := "UPDATE lot_stock AS ls SET stock = u.stock, reserved_stock = 0::int FROM unnest('{1,2}'::bigint[], '{5,6}'::int[]) AS u(bin_location_id, stock)" +
		" WHERE ls.article_detail_id = 7::bigint AND ls.bin_location_id = u.bin_location_id AND ls.lot_number = 'L'::text"; text != want {
		t.Errorf("formatted\n got %s\nwant %s", text, want)
	}
}
