package test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for lots and best-before dates, on SQLite and
// PostgreSQL.

type lotFixture struct {
	*ohFixture
	t          *testing.T
	tracked    int64 // lot-tracked product
	binB, binC int64
	keys       int
}

func lotSetup(t *testing.T, databaseURL string) *lotFixture {
	f := &lotFixture{ohFixture: ohSetup(t, databaseURL), t: t}
	f.tracked = f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "MILK-1", "lotTracked": true}), false)
	f.binB = f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "B-01"}), false)
	f.binC = f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "C-01"}), false)
	return f
}

// batch sends one batch and returns its results.
func (f *lotFixture) batch(endpoint string, ops ...map[string]any) []map[string]any {
	f.t.Helper()
	f.keys++
	list := make([]any, len(ops))
	for i, op := range ops {
		list[i] = op
	}
	body := ohBatch(f.t, f.env.Do(f.t, "PUT", fmt.Sprintf("/api/%s/lot-key-%d", endpoint, f.keys), list))
	var out []map[string]any
	for _, r := range body["results"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

// ok sends a batch whose every operation must succeed.
func (f *lotFixture) ok(endpoint string, ops ...map[string]any) {
	f.t.Helper()
	for i, r := range f.batch(endpoint, ops...) {
		if r["success"] != true {
			f.t.Fatalf("%s operation %d failed: %v", endpoint, i, r["message"])
		}
	}
}

// fails sends one operation that must fail with a message that mentions
// every string.
func (f *lotFixture) fails(endpoint string, op map[string]any, mentions ...string) {
	f.t.Helper()
	r := f.batch(endpoint, op)[0]
	if r["success"] != false {
		f.t.Fatalf("%s %v succeeded", endpoint, op)
	}
	for _, m := range mentions {
		if !strings.Contains(fmt.Sprint(r["message"]), m) {
			f.t.Errorf("%s: message %q does not mention %q", endpoint, r["message"], m)
		}
	}
}

func lotOp(article int64, quantity int, at map[string]any, lot map[string]any) map[string]any {
	op := map[string]any{"articleDetailId": article, "quantity": quantity}
	for k, v := range at {
		op[k] = v
	}
	if lot != nil {
		op["lot"] = lot
	}
	return op
}

func lot(number string, bestBefore ...any) map[string]any {
	l := map[string]any{"number": number}
	if len(bestBefore) > 0 {
		l["bestBefore"] = bestBefore[0]
	}
	return l
}

// lotsOn is the `lots` of the product's mapping on a bin.
func (f *lotFixture) lotsOn(bin int64) []any {
	f.t.Helper()
	data := ohOK(f.t, f.env.Do(f.t, "GET", fmt.Sprintf("/api/binLocations/%d", bin), nil))["data"].(map[string]any)
	for _, m := range data["articleDetailBinLocationMappings"].([]any) {
		mm := m.(map[string]any)
		if ohInt(f.t, mm["articleDetailId"]) == f.tracked {
			return mm["lots"].([]any)
		}
	}
	return nil
}

func lotEntry(number string, bestBefore any, stock, reserved int) map[string]any {
	return map[string]any{"number": number, "bestBefore": bestBefore, "stock": float64(stock), "reservedStock": float64(reserved)}
}

func requireLots(t testing.TB, what string, got []any, want ...map[string]any) {
	t.Helper()
	w := make([]any, len(want))
	for i := range want {
		w[i] = want[i]
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("%s\n got %v\nwant %v", what, got, w)
	}
}

func (f *lotFixture) article(id int64) map[string]any {
	f.t.Helper()
	return ohOK(f.t, f.env.Do(f.t, "GET", fmt.Sprintf("/api/articleDetails/%d", id), nil))["data"].(map[string]any)
}

// ledger lists the ledger entries the filters pick, oldest first.
func (f *lotFixture) ledger(filters ...string) []map[string]any {
	f.t.Helper()
	q := url.Values{}
	for i := 0; i+1 < len(filters); i += 2 {
		n := i / 2
		q.Set(fmt.Sprintf("filter[%d][property]", n), filters[i])
		q.Set(fmt.Sprintf("filter[%d][value]", n), filters[i+1])
	}
	q.Set("limit", "1000")
	body := ohOK(f.t, f.env.Do(f.t, "GET", "/api/stockLedgerEntries?"+q.Encode(), nil))
	var out []map[string]any
	for _, e := range body["data"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

func TestLotsOverHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := lotSetup(t, databaseURL)
		onA, onB, onC := ohBin(f.binA), ohBin(f.binB), ohBin(f.binC)

		// Tracking shows in the product.
		if a := f.article(f.tracked); a["lotTracked"] != true || a["expiredStock"] != float64(0) {
			t.Errorf("tracked product: lotTracked %v, expiredStock %v", a["lotTracked"], a["expiredStock"])
		}
		if a := f.article(f.art1); a["lotTracked"] != false {
			t.Errorf("untracked product: lotTracked %v", a["lotTracked"])
		}

		// Stock in needs a lot; a lot on an untracked product fails.
		f.fails("stock/change", lotOp(f.tracked, 5, onA, nil), "lot required")
		f.fails("stock/set", lotOp(f.tracked, 5, onA, nil), "lot required")
		f.fails("stock/change", lotOp(f.art1, 5, onA, lot("L1")), "not lot-tracked")

		f.ok("stock/set", lotOp(f.tracked, 5, onA, lot("L1", "2030-01-01")))
		f.ok("stock/change", lotOp(f.tracked, 3, onB, lot("L2", "2029-06-01")), lotOp(f.tracked, 2, onA, lot("L3")))
		// L1 has its date: another one fails and names it; none means L1.
		f.fails("stock/change", lotOp(f.tracked, 1, onA, lot("L1", "2031-01-01")), "L1", "2030-01-01")
		f.fails("stock/change", lotOp(f.tracked, 1, onA, lot("L1", nil)), "L1", "2030-01-01")
		f.fails("stock/change", lotOp(f.tracked, 1, onA, lot("L1", "01.01.2030")), "bestBefore")
		f.ok("stock/change", lotOp(f.tracked, 1, onA, lot("L1")))

		requireLots(t, "A-01", f.lotsOn(f.binA), lotEntry("L1", "2030-01-01", 6, 0), lotEntry("L3", nil, 2, 0))
		requireLots(t, "B-01", f.lotsOn(f.binB), lotEntry("L2", "2029-06-01", 3, 0))
		if m, _ := f.mapping(t, f.tracked, f.binA); m != 8 {
			t.Errorf("A-01 holds %d, want the lots' sum 8", m)
		}

		// The lots, first expiring first.
		list := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/lots?filter[0][property]=lot.articleDetailId&filter[0][value]=%d", f.tracked), nil))
		var numbers []string
		var l1 map[string]any
		for _, l := range list["data"].([]any) {
			lm := l.(map[string]any)
			numbers = append(numbers, lm["number"].(string))
			if lm["number"] == "L1" {
				l1 = lm
			}
		}
		if strings.Join(numbers, ",") != "L2,L1,L3" || list["total"] != float64(3) {
			t.Errorf("lots %v (total %v), want L2,L1,L3", numbers, list["total"])
		}
		one := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/lots/%d", ohInt(t, l1["id"])), nil))["data"].(map[string]any)
		wantL1 := map[string]any{"id": l1["id"], "articleDetailId": float64(f.tracked), "number": "L1", "bestBefore": "2030-01-01",
			"expired": false, "stock": float64(6), "reservedStock": float64(0), "locations": []any{map[string]any{
				"warehouseId": float64(f.main), "binLocationId": float64(f.binA), "binLocationCode": "A-01", "stock": float64(6), "reservedStock": float64(0)}}}
		if !reflect.DeepEqual(one, wantL1) {
			t.Errorf("lot L1\n got %v\nwant %v", one, wantL1)
		}

		// Stock out without a lot: first expiring first out.
		f.ok("stock/change", lotOp(f.tracked, -4, ohWarehouse(f.main), nil))
		out := f.ledger("stockLedgerEntry.articleDetailId", fmt.Sprint(f.tracked), "stockLedgerEntry.type", "outgoing")
		var taken []string
		for _, e := range out {
			taken = append(taken, fmt.Sprintf("%v%v", e["lotNumber"], e["quantity"]))
		}
		if strings.Join(taken, " ") != "L2-3 L1-1" {
			t.Errorf("outgoing %v, want L2 first, then L1", taken)
		}
		for _, e := range f.ledger("stockLedgerEntry.articleDetailId", fmt.Sprint(f.art1)) {
			if e["lotNumber"] != nil {
				t.Errorf("untracked entry with lotNumber %v", e["lotNumber"])
			}
		}

		// An expired lot: received, counted as expired, not for sale,
		// never shipped or picked, but movable and writable off.
		f.ok("stock/change", lotOp(f.tracked, 4, onC, lot("OLD", "2020-01-01")))
		a := f.article(f.tracked)
		if a["expiredStock"] != float64(4) || a["physicalStock"] != float64(11) || a["physicalStockForSale"] != float64(7) || a["availableStock"] != float64(7) {
			t.Errorf("figures with 4 expired of 11: expiredStock %v physicalStock %v forSale %v available %v",
				a["expiredStock"], a["physicalStock"], a["physicalStockForSale"], a["availableStock"])
		}
		expired := ohOK(t, f.env.Do(t, "GET", "/api/lots?filter[0][property]=lot.expired&filter[0][value]=1", nil))["data"].([]any)
		if len(expired) != 1 || expired[0].(map[string]any)["number"] != "OLD" || expired[0].(map[string]any)["expired"] != true {
			t.Errorf("expired lots %v", expired)
		}

		// Orders: a picking list reserves L1 (first expiring there), the
		// picks name it; shipping takes it.
		o1 := f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{"number": "LOT-1", "details": []any{
			map[string]any{"articleDetailId": f.tracked, "quantity": 2}}}), false)
		o2 := f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{"number": "LOT-2", "details": []any{
			map[string]any{"articleDetailId": f.tracked, "quantity": 2}}}), false)
		ps := picks(t, f.env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", o1), nil), o1)
		if len(ps) != 1 || ps[0].(map[string]any)["lotNumber"] != "L1" || ps[0].(map[string]any)["quantity"] != float64(2) {
			t.Fatalf("picks %v, want 2 of L1", ps)
		}
		requireLots(t, "A-01 with L1 reserved", f.lotsOn(f.binA), lotEntry("L1", "2030-01-01", 5, 2), lotEntry("L3", nil, 2, 0))
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", o1), map[string]any{}))

		d2 := f.detailOf(t, o2)
		// Named expired lot: refused; named L3: shipped from L3.
		f.fails("orderDetails/ship", map[string]any{"orderDetailId": d2, "quantity": 1, "binLocation": map[string]any{"id": f.binC}, "lot": lot("OLD")}, "expired")
		f.fails("orderDetails/ship", map[string]any{"orderDetailId": d2, "quantity": 1, "binLocation": map[string]any{"id": f.binC}}, "insufficient")
		f.ok("orderDetails/ship", map[string]any{"orderDetailId": d2, "quantity": 2, "warehouse": map[string]any{"id": f.main}, "lot": lot("L3")})

		// The recall: each lot's shipments, with their orders, in one query.
		for lotNumber, order := range map[string]int64{"L1": o1, "L3": o2} {
			ships := f.ledger("stockLedgerEntry.lotNumber", lotNumber, "stockLedgerEntry.type", "shipment")
			if len(ships) != 1 || ohInt(t, ships[0]["orderId"]) != order {
				t.Errorf("shipments of %s: %v, want one of order %d", lotNumber, ships, order)
			}
		}

		// A return of LOT-1 goes back into L1, the one lot it shipped from.
		res := f.returnRequest(t, fmt.Sprintf("/api/orders/%d", o1), "", map[string]any{"details": []any{
			map[string]any{"orderDetailId": f.detailOf(t, o1), "quantity": 1}}, "binLocation": map[string]any{"id": f.binB}})
		if res.Status != http.StatusCreated {
			t.Fatalf("return: %s", res)
		}
		requireLots(t, "B-01 after the return", f.lotsOn(f.binB), lotEntry("L1", "2030-01-01", 1, 0))

		// Quarantine: "all" moves every piece of C-01, the expired lot too.
		f.ok("stock/relocate", map[string]any{"articleDetailId": f.tracked, "quantity": "all", "source": onC, "destination": onB})
		requireLots(t, "B-01 after the quarantine move", f.lotsOn(f.binB), lotEntry("OLD", "2020-01-01", 4, 0), lotEntry("L1", "2030-01-01", 1, 0))
		f.ok("stock/change", lotOp(f.tracked, -4, onB, lot("OLD")))
		if a := f.article(f.tracked); a["expiredStock"] != float64(0) {
			t.Errorf("expiredStock %v after the write-off", a["expiredStock"])
		}
		// OLD stays listed for tracing, with nothing left.
		old := ohOK(t, f.env.Do(t, "GET", "/api/lots?filter[0][property]=lot.number&filter[0][value]=OLD", nil))["data"].([]any)
		if len(old) != 1 || old[0].(map[string]any)["stock"] != float64(0) || len(old[0].(map[string]any)["locations"].([]any)) != 0 {
			t.Errorf("OLD after its last piece left: %v", old)
		}

		// lotTracked changes only while the product holds nothing.
		ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", f.tracked), map[string]any{"lotTracked": false}), 400, "lotTracked")
	})
}

// detailOf is the id of an order's first position.
func (f *lotFixture) detailOf(t testing.TB, orderID int64) int64 {
	t.Helper()
	data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/orders/%d", orderID), nil))["data"].(map[string]any)
	return ohInt(t, data["details"].([]any)[0].(map[string]any)["id"])
}
