package stock

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/errs"
)

// writeOff is the worked example of domain/README.md: a new kind of stock
// operation with a rule of its own. It takes damaged pieces off one bin
// location, but never off a bin in quarantine (a code starting with "Q-"),
// whose stock waits for an inspection. Like every operation it declares
// what it needs loaded and then works on the working set alone.
type writeOff struct {
	ArticleDetailID int64
	From            LocationSpec
	Quantity        int
}

func (w writeOff) Declare(s *Scope) { s.Add(w.ArticleDetailID, w.From) }

func (w writeOff) Run(ws *WorkingSet, ref Reference) error {
	from, err := ws.locate(w.ArticleDetailID, w.From, "")
	if err != nil {
		return err
	}
	if from.IsWarehouse() {
		return errs.Invalidf("a write-off names a bin location, not %s", from)
	}
	if b, _ := ws.bin(from.BinLocationID); strings.HasPrefix(b.Code, "Q-") {
		return errs.Invalidf("%s is in quarantine: nothing is written off there", from)
	}
	if w.Quantity <= 0 {
		return errs.Invalidf("a write-off takes a positive quantity, got %d", w.Quantity)
	}
	// change refuses to take more than the unreserved stock, and writes
	// the ledger entry.
	return ws.change(w.ArticleDetailID, from, -w.Quantity, nil, ref)
}

// Example_writeOff runs three write-offs the way the application's batch
// loop does: declare the scope, build the working set from what storage
// found, apply each operation (a failing one changes nothing), and read
// back what to save.
func Example_writeOff() {
	const mug = 7
	shelf := &BinLocationSpec{Code: "A-01", WarehouseCode: "WH1"}
	quarantine := &BinLocationSpec{Code: "Q-01", WarehouseCode: "WH1"}
	ops := []Operation{
		writeOff{ArticleDetailID: mug, From: LocationSpec{BinLocation: shelf}, Quantity: 2},
		writeOff{ArticleDetailID: mug, From: LocationSpec{BinLocation: quarantine}, Quantity: 1},
		writeOff{ArticleDetailID: mug, From: LocationSpec{BinLocation: shelf}, Quantity: 9},
	}

	// What storage finds for the scope: warehouse WH1 with its unknown bin
	// location (id 10), the bins A-01 (11) and Q-01 (12), and the mug's
	// stock on both bins.
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ws := NewWorkingSet(ScopeOf(ops...), now,
		[]KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 10}},
		[]Bin{{ID: 11, WarehouseID: 1, Code: "A-01"}, {ID: 12, WarehouseID: 1, Code: "Q-01"}},
		[]int64{mug})
	onShelf, _ := UnmarshalMappingFromDatabase(100, 11, 1, mug, 5, 0, false, nil)
	inQuarantine, _ := UnmarshalMappingFromDatabase(101, 12, 1, mug, 3, 0, false, nil)
	ws.Loaded(ws.MappingNeeds(), []*Mapping{onShelf, inQuarantine}, nil)

	for i, op := range ops {
		if err := ws.Apply(op, Reference{IdempotencyKey: "damaged-2026-11-23", User: "admin"}); err != nil {
			fmt.Printf("operation %d failed: %v\n", i+1, err)
			continue
		}
		fmt.Printf("operation %d applied\n", i+1)
	}
	_, _, entries := ws.Changes()
	for _, e := range entries {
		fmt.Printf("ledger: %s %+d on bin %d, stock after %d\n", e.Type, e.Quantity, e.BinLocationID, e.StockAfter)
	}
	// Output:
	// operation 1 applied
	// operation 2 failed: bin location "Q-01" in warehouse "WH1" is in quarantine: nothing is written off there
	// operation 3 failed: insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH1": requested 9, available 3
	// ledger: outgoing -2 on bin 11, stock after 3
}
