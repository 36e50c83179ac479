package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestConsoleShipConfirmationSaysWhatShips: the page that asks before an
// order ships names every bin, product and lot the shipment takes from, in
// the order the stock-out rules choose (the default bin first, then the
// bin with least stock; the lot that expires first), and the shipment then
// takes exactly those. An order the warehouse cannot fill says so and
// offers no button that would ship.
func TestConsoleShipConfirmationSaysWhatShips(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		api, b := f.api, f.b
		bin := func(code string) map[string]any {
			return map[string]any{"code": code, "warehouseId": f.warehouse}
		}
		api.do(t, "PUT", "/api/stock/change/confirm-stock", []any{
			map[string]any{"articleDetailId": f.product, "quantity": 2, "binLocation": bin("A-02")},
			map[string]any{"articleDetailId": f.product, "quantity": 4, "binLocation": bin("A-03")},
			map[string]any{"articleDetailId": f.product, "quantity": 6, "binLocation": bin("A-01")},
			map[string]any{"articleDetailId": f.milk, "quantity": 5, "binLocation": bin("A-01"),
				"lot": map[string]any{"number": "L-NEW", "bestBefore": "2031-06-30"}},
			map[string]any{"articleDetailId": f.milk, "quantity": 1, "binLocation": bin("A-03"),
				"lot": map[string]any{"number": "L-OLD", "bestBefore": "2031-01-31"}},
		}, http.StatusOK)
		order := api.id(t, "POST", "/api/orders", map[string]any{"number": "20001", "customerEmail": "ann@example.com",
			"details": []any{
				map[string]any{"articleDetailId": f.product, "quantity": 3},
				map[string]any{"articleDetailId": f.milk, "quantity": 2},
			}})

		b.visit(fmt.Sprintf("/console/orders/%d/ship?warehouse=%d", order, f.warehouse), "ship-confirm")
		var rows []string
		for i := 1; i <= b.count("table.takes tbody tr"); i++ {
			rows = append(rows, strings.Join(strings.Fields(b.text(fmt.Sprintf("table.takes tbody tr:nth-child(%d)", i))), " "))
		}
		want := []string{"A-01 MILK-1 L-NEW 1", "A-02 SKU-100 – 2", "A-03 SKU-100 – 1", "A-03 MILK-1 L-OLD 1"}
		if strings.Join(rows, " | ") != strings.Join(want, " | ") {
			t.Fatalf("the confirmation lists\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
		}

		b.submit("shipped", click(`form[action$="/ship"] button`))
		onBin := map[string]int{}
		for _, l := range api.do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.orderId&filter[0][value]=%d", order), nil, http.StatusOK)["data"].([]any) {
			e := l.(map[string]any)
			lot, _ := e["lotNumber"].(string)
			onBin[fmt.Sprintf("%v %v %s", e["binLocationId"], e["articleDetailId"], lot)] -= int(e["quantity"].(float64))
		}
		if len(onBin) != len(want) {
			t.Fatalf("the shipment took %v, the confirmation listed %v", onBin, want)
		}
		if status := api.do(t, "GET", fmt.Sprintf("/api/orders/%d", order), nil, http.StatusOK)["data"].(map[string]any)["status"]; status != "Completely delivered" {
			t.Fatalf("the order is %v after the confirmation's button", status)
		}

		big := api.id(t, "POST", "/api/orders", map[string]any{"number": "20002",
			"details": []any{map[string]any{"articleDetailId": f.product, "quantity": 50}}})
		b.visit(fmt.Sprintf("/console/orders/%d/ship?warehouse=%d", big, f.warehouse), "ship-cannot")
		if got := b.text("main"); !strings.Contains(got, "It cannot ship now") || !strings.Contains(got, "SKU-100") {
			t.Fatalf("an order the warehouse cannot fill: %q", got)
		}
		if n := b.count(`form[action$="/ship"] button`); n != 0 {
			t.Fatalf("an order that cannot ship is offered %d buttons that ship", n)
		}
	})
}
