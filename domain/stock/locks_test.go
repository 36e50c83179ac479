package stock

import (
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

// lock marks a bin as locked by an open count, as storage would.
func lock(ws *WorkingSet, bin, count int64) {
	b := ws.bins[bin]
	b.LockedBy = count
	ws.bins[bin] = b
	ws.anyLocked = true
}

func assertLocked(t *testing.T, err error, bin string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Conflict || e.Code != BinLocked || !strings.Contains(e.Message, bin) || !strings.Contains(e.Message, "count 50") {
		t.Fatalf("got %v, want a conflict naming %s and count 50", err, bin)
	}
}

func TestNothingMovesStockOnALockedBin(t *testing.T) {
	ops := map[string]Operation{
		"change out":    Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: -1},
		"change in":     Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 1},
		"set":           Set{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 5},
		"set unchanged": Set{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 4},
		"set warehouse": Set{ArticleDetailID: article, At: whSpec(wh1), Quantity: 9},
		"move out":      Relocate{ArticleDetailID: article, From: binSpec(shelfA), To: binSpec(shelfB), Quantity: 1},
		"move all out":  Relocate{ArticleDetailID: article, From: binSpec(shelfA), To: binSpec(shelfB), All: true},
		"move in":       Relocate{ArticleDetailID: article, From: binSpec(shelfB), To: binSpec(shelfA), Quantity: 1},
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			ws := load(t, row{bin: shelfA, stock: 4}, row{bin: shelfB, stock: 3})
			lock(ws, shelfA, 50)
			before := snap(ws)
			assertLocked(t, ws.Apply(op, ref), `"A-01"`)
			assertUnchanged(t, ws, before)
		})
	}
}

func TestStockInThroughAWarehouseRefusesALockedDefaultBin(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 4, def: true})
	lock(ws, shelfA, 50)
	assertLocked(t, ws.Apply(Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: 2}, ref), `"A-01"`)
}

func TestTheStrategyPassesLockedBinsBy(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 4, def: true}, row{bin: shelfB, stock: 3})
	lock(ws, shelfA, 50)
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: -3}, ref))
	eq(t, "state", state(ws), want(row{bin: shelfA, stock: 4, def: true}))
	// Only the locked bin holds stock now: a shortfall.
	assertInvalid(t, ws.Apply(Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: -1}, ref),
		`insufficient stock of article detail 7 at warehouse "WH1": requested 1, available 0`)
	if _, err := ws.Reserve(article, inWH1, 1); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("reserving what lies only on a locked bin: %v, want a shortfall", err)
	}
}

func TestShippingHeldPiecesOffALockedBinIsRefused(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 4, reserved: 2})
	lock(ws, shelfA, 50)
	_, err := ws.ShipHolding(article, inWH1, 2, []Hold{{WarehouseID: wh1, BinLocationID: shelfA, Quantity: 2}}, nil, ref)
	assertLocked(t, err, `"A-01"`)
	// Releasing is no movement.
	mustNot(t, ws.Release(article, Hold{WarehouseID: wh1, BinLocationID: shelfA, Quantity: 2}))
}

func TestTheLockingCountBooksItsOwnDifference(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 4})
	lock(ws, shelfA, 50)
	if _, err := ws.Recount(article, atA, nil, -1, ref); errs.KindOf(err) != errs.Conflict {
		t.Fatalf("another booking: %v, want a conflict", err)
	}
	own := ref
	own.CountID = 50
	moved, err := ws.Recount(article, atA, nil, -1, own)
	mustNot(t, err)
	eq(t, "moved", moved, -1)
	eq(t, "state", state(ws), want(row{bin: shelfA, stock: 3}))
	if ws.LockedBy(shelfA) != 50 || ws.LockedBy(shelfB) != 0 {
		t.Fatal("LockedBy")
	}
}

func TestTransferringOffALockedBinIsRefused(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 4})
	lock(ws, shelfA, 50)
	before := snap(ws)
	taken, err := ws.TransferOut(article, atA, 2, nil, ref)
	assertLocked(t, err, `"A-01"`)
	if taken != nil {
		t.Fatalf("took %v off a locked bin", taken)
	}
	assertUnchanged(t, ws, before)
}
