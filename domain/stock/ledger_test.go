package stock

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestALedgerEntryRecordsTheChangeOfOneMapping(t *testing.T) {
	inv := load(t, row{bin: shelfA, stock: 2, def: true}, row{bin: shelfB, stock: 4})
	mustNot(t, inv.change(article, inWH1, -5, nil, ref))
	eq(t, "entries", entries(inv), []LedgerEntry{
		{ArticleDetailID: article, WarehouseID: wh1, BinLocationID: shelfA, Type: EntryOutgoing, Quantity: -2, StockAfter: 0, Ref: ref, CreatedAt: now},
		{ArticleDetailID: article, WarehouseID: wh1, BinLocationID: shelfB, Type: EntryOutgoing, Quantity: -3, StockAfter: 1, Ref: ref, CreatedAt: now},
	})
}

// Many operations in a row, successful or not: after each one the
// invariants hold and a failure changed nothing; at the end the entries of
// every mapping add up to its change of stock, one StockAfter at a time.
func TestLedgerAndInvariantsHoldOverABatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	locations := []Location{inWH1, inWH2, atA, atB, atC, atD, atN1, binAt(null2)}
	shelves := []int64{shelfA, shelfB, shelfC, shelfD, null1, null2}
	pick := func() Location { return locations[rng.IntN(len(locations))] }
	articles := []int64{article, other}

	inv := load(t,
		row{bin: shelfA, stock: 5, reserved: 2, def: true}, row{bin: shelfB, stock: 3}, row{bin: null1, stock: 1},
		row{bin: shelfD, stock: 4, reserved: 4}, row{bin: shelfC, stock: 6, article: other},
	)
	initial := map[mappingKey]int{}
	for _, m := range inv.Mappings() {
		initial[mappingKey{m.ArticleDetailID(), m.BinLocationID()}] = m.Stock()
	}

	failures := 0
	for i := range 2000 {
		a := articles[rng.IntN(len(articles))]
		q := rng.IntN(13) - 6
		var err error
		var what string
		before := snap(inv)
		switch rng.IntN(5) {
		case 0:
			at := pick()
			what = fmt.Sprintf("set %d at %s", q, at)
			err = inv.set(a, at, q, nil, false, ref)
		case 1:
			at := pick()
			what = fmt.Sprintf("change %d at %s", q, at)
			err = inv.change(a, at, q, nil, ref)
		case 2:
			from, to, all := pick(), pick(), rng.IntN(4) == 0
			what = fmt.Sprintf("relocate %d (all %v) from %s to %s", q, all, from, to)
			_, err = inv.relocate(a, from, to, q, all, nil, ref)
		case 3:
			at := pick()
			what = fmt.Sprintf("ship %d from %s", q, at)
			_, err = inv.ShipHolding(a, at, q, nil, nil, ref)
		case 4:
			bin := binOf(shelves[rng.IntN(len(shelves))])
			isDefault := rng.IntN(3) > 0
			what = fmt.Sprintf("default %v on %s", isDefault, bin.Code)
			err = inv.setDefault(a, bin, isDefault)
		}
		if err != nil {
			failures++
			assertInvalid(t, err, "")
			assertUnchanged(t, inv, before)
		}
		assertInvariants(t, inv)
		if t.Failed() {
			t.Fatalf("operation %d: %s of article detail %d", i, what, a)
		}
	}
	if failures == 0 || failures == 2000 {
		t.Fatalf("the batch should mix successes and failures, got %d failures", failures)
	}

	sum := map[mappingKey]int{}
	for _, e := range entries(inv) {
		k := mappingKey{e.ArticleDetailID, e.BinLocationID}
		sum[k] += e.Quantity
		if got := initial[k] + sum[k]; e.StockAfter != got {
			t.Fatalf("entry %+v: StockAfter %d, but the entries so far add up to %d", e, e.StockAfter, got)
		}
	}
	final := map[mappingKey]int{}
	for _, m := range inv.Mappings() {
		final[mappingKey{m.ArticleDetailID(), m.BinLocationID()}] = m.Stock()
	}
	for k := range merge(initial, final, sum) {
		if final[k]-initial[k] != sum[k] {
			t.Errorf("article detail %d on bin %d: stock went %d → %d, entries add up to %d", k.article, k.bin, initial[k], final[k], sum[k])
		}
	}
}

func merge(ms ...map[mappingKey]int) map[mappingKey]bool {
	out := map[mappingKey]bool{}
	for _, m := range ms {
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// assertInvariants checks the stock invariants on the state as it stands:
// 0 ≤ reserved ≤ stock on every mapping, at most one default mapping per
// product and warehouse and never on the unknown bin location, and no
// mapping left that holds nothing and is not a default.
func assertInvariants(t *testing.T, inv *WorkingSet) {
	t.Helper()
	defaults := map[articleWarehouse]int{}
	for _, m := range inv.Mappings() {
		if m.ReservedStock() < 0 || m.ReservedStock() > m.Stock() {
			t.Errorf("0 ≤ reserved ≤ stock broken: %+v", *m)
		}
		if m.Removable() {
			t.Errorf("a removable mapping is in the state: %+v", *m)
		}
		if m.IsDefault() {
			defaults[articleWarehouse{m.ArticleDetailID(), m.WarehouseID()}]++
			if binOf(m.BinLocationID()).IsNull {
				t.Errorf("the unknown bin location is a default: %+v", *m)
			}
		}
	}
	for aw, n := range defaults {
		if n > 1 {
			t.Errorf("article detail %d has %d defaults in warehouse %d", aw.article, n, aw.warehouse)
		}
	}
}
