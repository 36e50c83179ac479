package stock

import (
	"slices"
	"testing"
)

func TestChangesSaysWhatToWriteBack(t *testing.T) {
	tests := []struct {
		name     string
		rows     []row
		ops      func(t *testing.T, inv *WorkingSet)
		upserted []row
		removed  []row
		newIDs   int // how many upserted mappings are new (ID 0)
	}{
		{
			name:     "untouched mappings are not written",
			rows:     []row{{bin: shelfA, stock: 2}},
			ops:      func(t *testing.T, inv *WorkingSet) {},
			upserted: want(), removed: want(),
		},
		{
			name:     "a modified mapping is upserted",
			rows:     []row{{bin: shelfA, stock: 2}, {bin: shelfB, stock: 2}},
			ops:      func(t *testing.T, inv *WorkingSet) { mustNot(t, inv.change(article, atA, 1, nil, ref)) },
			upserted: want(row{bin: shelfA, stock: 3}), removed: want(),
		},
		{
			name:     "a new mapping is upserted without an id",
			ops:      func(t *testing.T, inv *WorkingSet) { mustNot(t, inv.change(article, atA, 1, nil, ref)) },
			upserted: want(row{bin: shelfA, stock: 1}), removed: want(), newIDs: 1,
		},
		{
			name:     "an emptied stored mapping is removed",
			rows:     []row{{bin: shelfA, stock: 2}},
			ops:      func(t *testing.T, inv *WorkingSet) { mustNot(t, inv.change(article, atA, -2, nil, ref)) },
			upserted: want(), removed: want(row{bin: shelfA}),
		},
		{
			name: "a new mapping emptied again is never written",
			ops: func(t *testing.T, inv *WorkingSet) {
				mustNot(t, inv.change(article, atA, 2, nil, ref))
				mustNot(t, inv.change(article, atA, -2, nil, ref))
			},
			upserted: want(), removed: want(),
		},
		{
			name: "a stored mapping emptied and filled again is upserted as itself",
			rows: []row{{bin: shelfA, stock: 2}},
			ops: func(t *testing.T, inv *WorkingSet) {
				mustNot(t, inv.change(article, atA, -2, nil, ref))
				mustNot(t, inv.change(article, atA, 3, nil, ref))
			},
			upserted: want(row{bin: shelfA, stock: 3}), removed: want(),
		},
		{
			name:     "a stored mapping that lost its default and is empty is removed",
			rows:     []row{{bin: shelfA, def: true}},
			ops:      func(t *testing.T, inv *WorkingSet) { mustNot(t, inv.setDefault(article, binOf(shelfB), true)) },
			upserted: want(row{bin: shelfB, def: true}), removed: want(row{bin: shelfA}), newIDs: 1,
		},
		{
			name:     "a stored mapping that was empty already is removed",
			rows:     []row{{bin: shelfA}},
			ops:      func(t *testing.T, inv *WorkingSet) {},
			upserted: want(), removed: want(row{bin: shelfA}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			stored := map[int64]int64{} // bin → id as loaded
			for _, m := range inv.Mappings() {
				stored[m.BinLocationID()] = m.ID()
			}
			tt.ops(t, inv)
			upserted, removed, _ := inv.Changes()
			eq(t, "upserted", rowsOf(upserted), tt.upserted)
			eq(t, "removed", rowsOf(removed), tt.removed)
			newIDs := 0
			for _, m := range upserted {
				if m.ID() == 0 {
					newIDs++
				} else if stored[m.BinLocationID()] != m.ID() {
					t.Errorf("bin %d upserted with id %d, loaded with %d", m.BinLocationID(), m.ID(), stored[m.BinLocationID()])
				}
			}
			eq(t, "new mappings", newIDs, tt.newIDs)
			for _, m := range removed {
				if m.ID() == 0 {
					t.Errorf("a mapping that was never stored is reported removed: %+v", m)
				}
			}
		})
	}
}

func TestChangedArticlesAreThoseWhoseMappingsAreWritten(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 2}, row{bin: shelfB, stock: 4, article: other}, row{bin: shelfC, stock: 1})
	mustNot(t, ws.change(article, atA, -2, nil, ref)) // a stored mapping removed
	eq(t, "after a removal", ws.ChangedArticles(), []int64{article})
	mustNot(t, ws.change(other, atD, 3, nil, ref)) // a new mapping
	got := ws.ChangedArticles()
	slices.Sort(got)
	eq(t, "after a new mapping", got, []int64{article, other})
}
