package stock

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// totalsOf sums mappings per product and warehouse, the way the figures
// would without kept totals.
func totalsOf(ms []*Mapping) []WarehouseTotal {
	var out []WarehouseTotal
	for _, m := range ms {
		i := slices.IndexFunc(out, func(t WarehouseTotal) bool {
			return t.ArticleDetailID == m.ArticleDetailID() && t.WarehouseID == m.WarehouseID()
		})
		if i < 0 {
			out = append(out, WarehouseTotal{ArticleDetailID: m.ArticleDetailID(), WarehouseID: m.WarehouseID()})
			i = len(out) - 1
		}
		out[i] = out[i].Add(WarehouseTotal{Stock: m.Stock(), ReservedStock: m.ReservedStock(), Mappings: 1})
	}
	return ApplyTotals(nil, out)
}

// kept is what storage holds after writing the changed totals: the
// unchanged ones, the changed ones that still hold mappings.
func kept(before, changed []WarehouseTotal) []WarehouseTotal {
	var out []WarehouseTotal
	for _, t := range before {
		if !slices.ContainsFunc(changed, func(c WarehouseTotal) bool {
			return c.ArticleDetailID == t.ArticleDetailID && c.WarehouseID == t.WarehouseID
		}) {
			out = append(out, t)
		}
	}
	for _, c := range changed {
		if c.Held() {
			out = append(out, c)
		}
	}
	return ApplyTotals(nil, out)
}

func TestTotalsChangeByExactlyWhatTheWorkingSetWrites(t *testing.T) {
	locations := []Location{inWH1, inWH2, atA, atB, atC, atD, atN1}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		ws := load(t,
			row{bin: shelfA, stock: 4, reserved: 1}, row{bin: shelfB, stock: 2, def: true},
			row{bin: shelfD, stock: 3}, row{bin: shelfC, stock: 5, article: other})
		before := totalsOf(ws.Mappings())
		for range 1 + rng.IntN(6) {
			a := []int64{article, other}[rng.IntN(2)]
			at := locations[rng.IntN(len(locations))]
			switch rng.IntN(3) {
			case 0:
				_ = ws.change(a, at, rng.IntN(9)-4, nil, ref)
			case 1:
				_ = ws.set(a, at, rng.IntN(4), nil, false, ref)
			case 2:
				_, _ = ws.relocate(a, at, locations[rng.IntN(len(locations))], 1+rng.IntN(3), rng.IntN(2) == 0, nil, ref)
			}
		}
		got := kept(before, ApplyTotals(before, ws.TotalsChanges()))
		if want := totalsOf(ws.Mappings()); !slices.Equal(got, want) {
			t.Fatalf("seed %d: totals from the changes\n%v\nsummed from the mappings\n%v", seed, got, want)
		}
	}
}

func TestAWarehouseThatNoLongerHoldsMappingsIsNoLongerHeld(t *testing.T) {
	ws := load(t, row{bin: shelfD, stock: 3})
	mustNot(t, ws.change(article, atD, -3, nil, ref))
	changed := ApplyTotals(totalsOf(ws.Mappings()), nil)
	if len(changed) != 0 {
		t.Fatalf("no changes applied, yet %v changed", changed)
	}
	changed = ApplyTotals([]WarehouseTotal{{ArticleDetailID: article, WarehouseID: wh2, Stock: 3, Mappings: 1}}, ws.TotalsChanges())
	if len(changed) != 1 || changed[0].Held() || changed[0].Stock != 0 {
		t.Fatalf("the emptied warehouse: %v", changed)
	}
}

func TestTotalsKeepTheExpiredPieces(t *testing.T) {
	before := []WarehouseTotal{{ArticleDetailID: article, WarehouseID: wh1, Stock: 10, Expired: 4, Mappings: 1}}
	// Pieces of an expired lot written off: stock and expired go down together.
	got := ApplyTotals(before, []WarehouseTotal{{ArticleDetailID: article, WarehouseID: wh1, Stock: -3, Expired: -3}})
	if len(got) != 1 || got[0].Stock != 7 || got[0].Expired != 1 || got[0].Mappings != 1 {
		t.Fatalf("after a write-off: %v", got)
	}
	// A lot expiring changes only what of the stock is expired: that is a
	// change, to be kept.
	got = ApplyTotals(before, []WarehouseTotal{{ArticleDetailID: article, WarehouseID: wh1, Expired: 6}})
	if len(got) != 1 || got[0].Stock != 10 || got[0].Expired != 10 {
		t.Fatalf("after the expiry: %v", got)
	}
	// A new total starts from what the change brings.
	got = ApplyTotals(nil, []WarehouseTotal{{ArticleDetailID: other, WarehouseID: wh2, Stock: 2, Expired: 2, Mappings: 1}})
	if len(got) != 1 || got[0].Expired != 2 || !got[0].Held() {
		t.Fatalf("a new total: %v", got)
	}
}
