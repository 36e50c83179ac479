package bunstore

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/schema"
)

func TestSQLiteTakeReadsWhatTheDriverAnswers(t *testing.T) {
	want := time.Date(2026, 11, 23, 10, 0, 0, 123456000, time.UTC)
	for _, src := range []any{want, want.In(time.FixedZone("CET", 3600)), "2026-11-23 10:00:00.123456+00:00", []byte("2026-11-23 11:00:00.123456+01:00")} {
		var v sqliteTake
		if err := v.Scan(src); err != nil || v.t == nil || !v.t.Equal(want) || v.t.Location() != time.UTC {
			t.Errorf("Scan(%#v) = %v, %v; want %v in UTC", src, v.t, err, want)
		}
	}
	v := sqliteTake{t: &want}
	if err := v.Scan(nil); err != nil || v.t != nil {
		t.Errorf("Scan(nil) = %v, %v; want no stocktake", v.t, err)
	}
	for _, bad := range []any{"yesterday", int64(5)} {
		if err := new(sqliteTake).Scan(bad); err == nil {
			t.Errorf("Scan(%#v) accepted", bad)
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

func TestSQLiteColumnsBindEveryRowInChunks(t *testing.T) {
	type row struct{ id, stock int64 }
	rows := []row{{1, 5}, {2, 5}, {3, 5}}
	c := newSQLiteColumns(len(rows))
	sqliteColumn(c, rows, "id", func(r *row) any { return r.id })
	sqliteColumn(c, rows, "stock", func(r *row) any { return r.stock })
	var got []sqliteChunk
	collect := func(chunk sqliteChunk) error { got = append(got, chunk); return nil }
	if err := c.chunks(2, collect); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].tuples != "(?, ?), (?, ?)" || got[1].tuples != "(?, ?)" ||
		fmt.Sprint(got[0].columns, got[0].args, got[1].args) != "[id stock] [1 5 2 5] [3 5]" {
		t.Errorf("two chunks: %+v", got)
	}
	if want := "INSERT INTO t (id, stock) VALUES (?, ?), (?, ?)"; got[0].insert("t") != want {
		t.Errorf("insert: got %s, want %s", got[0].insert("t"), want)
	}
	got = nil
	if err := c.chunks(10, collect); err != nil {
		t.Fatal(err)
	}
	// Below the maximum the runs have lengths that are powers of two, so
	// that the statements' texts recur (sqliteRuns).
	if len(got) != 2 || got[0].tuples != "(?, ?), (?, ?)" || got[1].tuples != "(?, ?)" ||
		fmt.Sprint(got[0].args, got[1].args) != "[1 5 2 5] [3 5]" {
		t.Errorf("runs of 2 and 1: %+v", got)
	}
	c = newSQLiteColumns(4)
	sqliteColumn(c, []row{{1, 5}, {2, 5}, {3, 5}, {4, 5}}, "id", func(r *row) any { return r.id })
	got = nil
	if err := c.chunks(10, collect); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].tuples != "(?), (?), (?), (?)" || fmt.Sprint(got[0].args) != "[1 2 3 4]" {
		t.Errorf("one run of 4: %+v", got)
	}
}

func TestPgColumnsInsertRowsAlikeAsManyRows(t *testing.T) {
	type row struct{ a, b int64 }
	insert := func(rows []row) string {
		var c pgColumns
		pgColumn(&c, rows, "a", "bigint", func(r *row) int64 { return r.a })
		pgColumn(&c, rows, "b", "bigint", func(r *row) int64 { return r.b })
		return c.insert("t")
	}
	if got, want := insert([]row{{1, 2}, {1, 2}, {1, 2}}), "INSERT INTO t (a, b) SELECT ?::bigint, ?::bigint FROM generate_series(1, 3)"; got != want {
		t.Errorf("three rows alike:\n got %s\nwant %s", got, want)
	}
	if got, want := insert([]row{{1, 2}}), "INSERT INTO t (a, b) SELECT ?::bigint, ?::bigint"; got != want {
		t.Errorf("one row:\n got %s\nwant %s", got, want)
	}
	if got, want := insert([]row{{1, 2}, {1, 3}}), "INSERT INTO t (a, b) SELECT ?::bigint, u.b FROM unnest(?::bigint[]) AS u(b)"; got != want {
		t.Errorf("rows that differ:\n got %s\nwant %s", got, want)
	}
}

// TestLongTextIsTheLiteralBunSpells: the fast literal must be the one bun
// spells, for texts with quotes, other scripts, bad UTF-8 and NUL alike.
func TestLongTextIsTheLiteralBunSpells(t *testing.T) {
	gen := schema.NewQueryGen(pgdialect.New())
	for _, s := range []string{
		"", "plain", "'", "''", "it's", "'start", "end'", `back \ slash and "quotes"`,
		"Größe ½ – 日本 😀", "bad \xff utf-8 ' quote", "nul \x00 ' quote", "\x1e'\x1e",
		strings.Repeat(`{"name":"O'Brien"}`+"\x1e", 2000),
	} {
		got, err := longText(s).AppendQuery(gen, []byte("x="))
		if err != nil {
			t.Fatal(err)
		}
		if want := gen.Dialect().AppendString([]byte("x="), s); string(got) != string(want) {
			t.Errorf("%.40q: got %.60s, want %.60s", s, got, want)
		}
	}
}
