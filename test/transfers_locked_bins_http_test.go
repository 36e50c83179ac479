package test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestTransfersOnLockedBinsHTTP: while a count with lockBins is Open, a
// transfer moves no stock on its bins: a shipment from such a bin and a
// receipt or a return into one are a 409 naming the bin and the count that
// changes nothing, a shipment by the strategy passes the bin by; afterwards
// the same requests succeed.
func TestTransfersOnLockedBinsHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := tfSetup(t, databaseURL)
		ct := &ctFixture{ohFixture: f.ohFixture}
		id, tr := f.create(t, map[string]any{"number": "T-LK", "source": map[string]any{"id": f.main}, "destination": map[string]any{"id": f.second},
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 4}}})
		l1 := poLineID(t, tr, 0)
		f.created(t, f.post(t, id, "shipments", "", lines(line(l1, 1))), false)

		source := ct.open(t, map[string]any{"warehouse": map[string]any{"id": f.main}, "binLocations": []any{map[string]any{"id": f.binA}}, "lockBins": true})
		dest := ct.open(t, map[string]any{"warehouse": map[string]any{"id": f.second}, "binLocations": []any{map[string]any{"id": f.binB}}, "lockBins": true})
		entries := f.ledgerTotal(t, "")

		ohError(t, f.post(t, id, "shipments", "", lines(line(l1, 1, "binLocation", map[string]any{"id": f.binA}))),
			http.StatusConflict, "A-01", fmt.Sprintf("count %d", source))
		// A-01 is SKU-1's only bin in MAIN: the strategy finds nothing.
		ohError(t, f.post(t, id, "shipments", "", lines(line(l1, 1))), http.StatusBadRequest, "lines[0].quantity", "insufficient stock")
		ohError(t, f.post(t, id, "receipts", "", lines(line(l1, 1, "binLocation", map[string]any{"id": f.binB}))),
			http.StatusConflict, "B-01", fmt.Sprintf("count %d", dest))
		// The pieces on the road would go back onto A-01, SKU-1's default bin.
		ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled", "inTransit": "return"}),
			http.StatusConflict, "A-01", fmt.Sprintf("count %d", source))
		if got := tfLines(f.get(t, id)); got != "In transit | 1/0/0/0/1 of 4" {
			t.Fatalf("after refused movements: %s", got)
		}
		if s, _ := f.mapping(t, f.art1, f.binA); s != 9 || f.inTransit(t, f.art1) != 1 || f.ledgerTotal(t, "") != entries {
			t.Fatalf("A-01 holds %d, in transit %d, ledger %d entries (was %d)", s, f.inTransit(t, f.art1), f.ledgerTotal(t, ""), entries)
		}

		for _, c := range []int64{source, dest} {
			ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d", c), map[string]any{"status": "Cancelled"}))
		}
		f.created(t, f.post(t, id, "shipments", "", lines(line(l1, 1, "binLocation", map[string]any{"id": f.binA}))), false)
		f.created(t, f.post(t, id, "receipts", "", lines(line(l1, 1, "binLocation", map[string]any{"id": f.binB}))), false)
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled", "inTransit": "return"}))
		if got := tfLines(f.get(t, id)); got != "Cancelled | 2/1/1/0/0 of 4" {
			t.Fatalf("after the counts: %s", got)
		}
		if s, _ := f.mapping(t, f.art1, f.binA); s != 9 || f.inTransit(t, f.art1) != 0 {
			t.Fatalf("A-01 holds %d, in transit %d", s, f.inTransit(t, f.art1))
		}
	})
}
