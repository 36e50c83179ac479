package bunstore

import (
	"testing"
	"time"
)

func TestUnpackMappingsReadsWhatPostgreSQLPacks(t *testing.T) {
	// Codes may hold the separators of the records and fields, and any
	// UTF-8: they travel length-prefixed, in bytes.
	packed := "7,3,1,42,5,0,1,1732406400123456;9,4,1,42,-0,2,0,"
	codes := "5:A;1,:" + "8:Fach-ä:"
	rows, err := unpackMappings(packed, codes)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2", len(rows))
	}
	first, second := rows[0], rows[1]
	if first.ID != 7 || first.BinLocationID != 3 || first.WarehouseID != 1 || first.ArticleDetailID != 42 ||
		first.Stock != 5 || first.ReservedStock != 0 || !first.IsDefault || first.BinCode != "A;1,:" {
		t.Errorf("first row %+v", first)
	}
	want := time.Date(2024, 11, 24, 0, 0, 0, 123456000, time.UTC)
	if first.LastStockTake == nil || !first.LastStockTake.Equal(want) {
		t.Errorf("first stocktake %v, want %v", first.LastStockTake, want)
	}
	if second.ID != 9 || second.ReservedStock != 2 || second.IsDefault || second.LastStockTake != nil || second.BinCode != "Fach-ä:" {
		t.Errorf("second row %+v", second)
	}
	if rows, err := unpackMappings("", ""); err != nil || rows != nil {
		t.Errorf("nothing packed: %v, %v", rows, err)
	}
	for _, bad := range [][2]string{{"1,2,3", "0:"}, {"1,2,3,4,5,6,x,", "0:"}, {"1,2,3,4,5,6,0,", "9:abc"}, {"1,2,3,4,5,6,0,", ""}} {
		if _, err := unpackMappings(bad[0], bad[1]); err == nil {
			t.Errorf("unpackMappings(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestPgColumnsSendWhatRowsShareOnce(t *testing.T) {
	type row struct {
		id, stock int64
		key       *string
	}
	k := "k"
	build := func(rows []row) (string, int) {
		var c pgColumns
		pgColumn(&c, rows, "id", "bigint", func(r *row) int64 { return r.id })
		pgColumn(&c, rows, "stock", "int", func(r *row) int64 { return r.stock })
		pgColumn(&c, rows, "key", "text", func(r *row) *string { return r.key })
		return c.update("t", "x"), len(c.args)
	}
	got, args := build([]row{{1, 5, &k}, {2, 5, &k}})
	if want := "UPDATE t AS x SET stock = ?::int, key = ?::text FROM unnest(?::bigint[]) AS u(id) WHERE x.id = u.id"; got != want || args != 3 {
		t.Errorf("shared columns:\n got %s (%d args)\nwant %s", got, args, want)
	}
	other := "other"
	got, args = build([]row{{1, 5, &k}, {2, 6, &other}})
	if want := "UPDATE t AS x SET stock = u.stock, key = u.key FROM unnest(?::bigint[], ?::int[], ?::text[]) AS u(id, stock, key) WHERE x.id = u.id"; got != want || args != 3 {
		t.Errorf("varying columns:\n got %s (%d args)\nwant %s", got, args, want)
	}
	got, args = build([]row{{7, 5, nil}})
	if want := "UPDATE t AS x SET stock = ?::int, key = ?::text WHERE x.id = ?::bigint"; got != want || args != 3 {
		t.Errorf("one row:\n got %s (%d args)\nwant %s", got, args, want)
	}
	got, args = build([]row{{1, 5, nil}, {2, 5, &k}})
	if want := "UPDATE t AS x SET stock = ?::int, key = u.key FROM unnest(?::bigint[], ?::text[]) AS u(id, key) WHERE x.id = u.id"; got != want || args != 3 {
		t.Errorf("NULL and a value differ:\n got %s (%d args)\nwant %s", got, args, want)
	}
}

func TestSQLiteColumnsBindWhatRowsShareOnce(t *testing.T) {
	type row struct{ id, stock int64 }
	rows := []row{{1, 5}, {2, 5}, {3, 5}}
	c := newSQLiteColumns(len(rows))
	sqliteColumn(c, rows, "id", func(r *row) int64 { return r.id }, func(v int64) any { return v })
	sqliteColumn(c, rows, "stock", func(r *row) int64 { return r.stock }, func(v int64) any { return v })
	var got []string
	var gotArgs [][]any
	err := c.chunks(2, func(tuples string, args []any) error {
		got, gotArgs = append(got, tuples), append(gotArgs, args)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "(?2, ?1), (?3, ?1)" || got[1] != "(?2, ?1)" {
		t.Errorf("tuples %q", got)
	}
	if len(gotArgs) != 2 || len(gotArgs[0]) != 3 || gotArgs[0][0] != int64(5) || gotArgs[0][1] != int64(1) || gotArgs[0][2] != int64(2) ||
		len(gotArgs[1]) != 2 || gotArgs[1][1] != int64(3) {
		t.Errorf("args %v", gotArgs)
	}
}

func TestAnUpdateWritesTheColumnsThatChanged(t *testing.T) {
	take := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	sameTake := take.In(time.FixedZone("CET", 3600))
	loaded := mappingRow{ID: 1, Stock: 5, ReservedStock: 1, IsDefault: true, LastStockTake: &take}
	r := stockMappings{&store{loadedMappings: map[int64]mappingRow{1: loaded}}}
	row := func(change func(*mappingRow)) []mappingRow {
		m := loaded
		change(&m)
		return []mappingRow{m}
	}
	for name, c := range map[string]struct {
		rows []mappingRow
		want int
	}{
		"nothing":            {row(func(m *mappingRow) { m.LastStockTake = &sameTake }), 0},
		"stock":              {row(func(m *mappingRow) { m.Stock = 6 }), changedStock},
		"reserved":           {row(func(m *mappingRow) { m.ReservedStock = 0 }), changedReserved},
		"default":            {row(func(m *mappingRow) { m.IsDefault = false }), changedDefault},
		"stocktake":          {row(func(m *mappingRow) { m.LastStockTake = nil }), changedTake},
		"a mapping not read": {[]mappingRow{{ID: 2, Stock: 5}}, changedStock | changedReserved | changedDefault | changedTake},
	} {
		if got := r.changedColumns(c.rows); got != c.want {
			t.Errorf("%s: changed %b, want %b", name, got, c.want)
		}
	}
}
