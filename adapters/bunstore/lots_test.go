package bunstore

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shopstock/inventory/domain/stock"
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

func TestLotsFromTextReadsPostgreSQLsTextRows(t *testing.T) {
	row := func(fields ...string) [][]byte {
		out := make([][]byte, len(fields))
		for i, f := range fields {
			if f != "NULL" {
				out[i] = []byte(f)
			}
		}
		return out
	}
	got, err := lotsFromText(&pgconn.Result{Rows: [][][]byte{
		row("t", "7", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"),
		row("l", "7", "L-1", "2026-12-24", "f", "NULL", "NULL", "NULL"),
		row("l", "7", "L-2", "NULL", "t", "NULL", "NULL", "NULL"),
		row("s", "7", "L-1", "NULL", "NULL", "3", "5", "2"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	date := time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)
	if len(got.tracked) != 1 || got.tracked[0] != 7 || len(got.lots) != 2 ||
		got.lots[0].Number != "L-1" || got.lots[0].BestBefore == nil || !got.lots[0].BestBefore.Equal(date) || got.lots[0].ExpiryCounted ||
		got.lots[1].BestBefore != nil || !got.lots[1].ExpiryCounted {
		t.Errorf("lots %+v", got)
	}
	if s := got.stock[mappingKeyOf{7, 3}]; len(s) != 1 || s[0] != (stock.LotStock{Number: "L-1", Stock: 5, ReservedStock: 2}) {
		t.Errorf("lot stock %+v", got.stock)
	}
	if none, err := lotsFromText(&pgconn.Result{}); none != nil || err != nil {
		t.Errorf("no tracked product: %+v, %v; want nothing to do", none, err)
	}
	for _, bad := range [][][]byte{row("t", "7"), row("s", "7", "L", "NULL", "NULL", "x", "1", "0"), row("l", "7", "L", "someday", "f", "NULL", "NULL", "NULL")} {
		if _, err := lotsFromText(&pgconn.Result{Rows: [][][]byte{bad}}); err == nil {
			t.Errorf("row %q accepted", bad)
		}
	}
}
