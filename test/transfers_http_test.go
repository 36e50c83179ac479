package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for transfers between warehouses, on SQLite
// and PostgreSQL. apitest checks every response against the OpenAPI
// document.

// tfFixture is poFixture (warehouses MAIN with bin A-01, SKU-1's default,
// and SECOND with bin B-01; SKU-1 and SKU-2) with stock in MAIN: 10 of
// SKU-1 on A-01 and 5 of SKU-2 on MAIN's unknown bin.
type tfFixture struct {
	*poFixture
	keys int
}

func tfSetup(t *testing.T, databaseURL string) *tfFixture {
	t.Helper()
	f := &tfFixture{poFixture: poSetup(t, databaseURL)}
	f.put(t, f.art1, map[string]any{"binLocation": map[string]any{"id": f.binA}}, 10)
	f.put(t, f.art2, ohWarehouse(f.main), 5)
	return f
}

func (f *tfFixture) create(t testing.TB, body map[string]any) (int64, map[string]any) {
	t.Helper()
	id := f.created(t, f.env.Do(t, "POST", "/api/transfers", body), false)
	return id, f.get(t, id)
}

func (f *tfFixture) get(t testing.TB, id int64) map[string]any {
	t.Helper()
	return ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/transfers/%d", id), nil))["data"].(map[string]any)
}

// post sends a shipment or receipt (kind "shipments" or "receipts"); body
// nil sends none.
func (f *tfFixture) post(t testing.TB, id int64, kind, key string, body any) *apitest.Response {
	t.Helper()
	req := poRequest(t, f.env, "POST", fmt.Sprintf("/api/transfers/%d/%s", id, kind), body)
	if body == nil {
		req = poRequest(t, f.env, "POST", fmt.Sprintf("/api/transfers/%d/%s", id, kind), "")
		req.Body, req.ContentLength = http.NoBody, 0
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return f.env.DoRaw(t, req)
}

func lines(ls ...map[string]any) map[string]any {
	out := make([]any, len(ls))
	for i, l := range ls {
		out[i] = l
	}
	return map[string]any{"lines": out}
}

// tfLines is the transfer's status and "shipped/received/returned/lost/inTransit of quantity" of every line.
func tfLines(tr map[string]any) string {
	parts := []string{fmt.Sprint(tr["status"])}
	for _, l := range tr["lines"].([]any) {
		lm := l.(map[string]any)
		parts = append(parts, fmt.Sprintf("%v/%v/%v/%v/%v of %v", lm["shipped"], lm["received"], lm["returned"], lm["lost"], lm["inTransit"], lm["quantity"]))
	}
	return strings.Join(parts, " | ")
}

func (f *tfFixture) inTransit(t testing.TB, article int64) int64 {
	t.Helper()
	return ohInt(t, f.article(t, article)["inTransitStock"])
}

func (f *tfFixture) ledgerTotal(t testing.TB, query string) int64 {
	t.Helper()
	return ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/stockLedgerEntries"+query, nil))["total"])
}

// transferEntries are "type quantity@bin lot" of the transfer's ledger
// entries, in order.
func (f *tfFixture) transferEntries(t testing.TB, id int64) string {
	t.Helper()
	body := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.transferId&filter[0][value]=%d", id), nil))
	var parts []string
	for _, e := range body["data"].([]any) {
		em := e.(map[string]any)
		if ohInt(t, em["transferId"]) != id {
			t.Fatalf("entry %v under transfer %d", em, id)
		}
		lot := ""
		if em["lotNumber"] != nil {
			lot = " " + em["lotNumber"].(string)
		}
		parts = append(parts, fmt.Sprintf("%v %v@%v%s", em["type"], em["quantity"], em["binLocationId"], lot))
	}
	return strings.Join(parts, ", ")
}

// statusEvents are "previous→status" of the transfer's transfer.statusChanged after a position.
func (f *tfFixture) statusEvents(t testing.TB, after, id int64) string {
	t.Helper()
	evs, _ := f.events(t, after, "transfer.statusChanged")
	var parts []string
	for _, e := range evs {
		if ohInt(t, e["transferId"]) == id {
			parts = append(parts, fmt.Sprintf("%v→%v", e["previousStatus"], e["status"]))
		}
	}
	return strings.Join(parts, ", ")
}

// changed is the product's one stock.changed after the position: its
// inTransitStock and cause.
func (f *tfFixture) changed(t testing.TB, after, article int64) (int64, map[string]any) {
	t.Helper()
	evs, _ := f.events(t, after, "stock.changed")
	var found []map[string]any
	for _, e := range evs {
		if ohInt(t, e["id"]) == article {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d stock.changed of article %d after %d: %v", len(found), article, after, evs)
	}
	return ohInt(t, found[0]["inTransitStock"]), found[0]["cause"].(map[string]any)
}

func (f *tfFixture) last(t testing.TB) int64 {
	t.Helper()
	_, last := f.events(t, 0, "stock.changed,stock.low,order.statusChanged,purchaseOrder.statusChanged,transfer.statusChanged")
	return last
}

func TestTransfersHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := tfSetup(t, databaseURL)
		before := f.last(t)
		id, tr := f.create(t, map[string]any{"number": "T-1", "source": map[string]any{"code": "MAIN"}, "destination": map[string]any{"id": f.second},
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 6}, map[string]any{"id": 88, "articleDetailId": f.art2, "quantity": 5}}})
		if ohInt(t, tr["sourceWarehouseId"]) != f.main || ohInt(t, tr["destinationWarehouseId"]) != f.second || tr["number"] != "T-1" ||
			tfLines(tr) != "Open | 0/0/0/0/0 of 6 | 0/0/0/0/0 of 5" || tr["createdAt"] == "" {
			t.Fatalf("created %v", tr)
		}
		l1, l2 := poLineID(t, tr, 0), poLineID(t, tr, 1)
		if l2 != 88 || tr["lines"].([]any)[0].(map[string]any)["lotNumber"] != nil {
			t.Fatalf("lines %v", tr["lines"])
		}

		t.Run("creating moves nothing and records no event", func(t *testing.T) {
			if f.last(t) != before || f.stock(t, f.art1, f.main) != 10 || f.inTransit(t, f.art1) != 0 {
				t.Fatalf("events after %d: %d; stock %d", before, f.last(t), f.stock(t, f.art1, f.main))
			}
		})

		t.Run("bad transfers are a 400 naming what is wrong", func(t *testing.T) {
			good := func() map[string]any {
				return map[string]any{"number": "T-X", "source": map[string]any{"id": f.main}, "destination": map[string]any{"code": "SECOND"},
					"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}}
			}
			for name, c := range map[string]struct {
				change  func(b map[string]any)
				mention string
			}{
				"number taken":        {func(b map[string]any) { b["number"] = "T-1" }, `number`},
				"no number":           {func(b map[string]any) { delete(b, "number") }, `number`},
				"same warehouses":     {func(b map[string]any) { b["destination"] = map[string]any{"code": "MAIN"} }, `destination`},
				"unknown source":      {func(b map[string]any) { b["source"] = map[string]any{"code": "NOPE"} }, `source`},
				"unknown destination": {func(b map[string]any) { b["destination"] = map[string]any{"id": 999} }, `destination`},
				"no lines":            {func(b map[string]any) { b["lines"] = []any{} }, `lines`},
				"two lines of one":    {func(b map[string]any) { b["lines"] = []any{b["lines"].([]any)[0], b["lines"].([]any)[0]} }, `lines[1].articleDetailId`},
				"unknown article":     {func(b map[string]any) { b["lines"] = []any{map[string]any{"articleDetailId": 999, "quantity": 1}} }, `lines[0].articleDetailId`},
				"quantity 0":          {func(b map[string]any) { b["lines"] = []any{map[string]any{"articleDetailId": f.art1, "quantity": 0}} }, `lines[0].quantity`},
				"too many pieces": {func(b map[string]any) {
					b["lines"] = []any{map[string]any{"articleDetailId": f.art1, "quantity": 1000000001}}
				}, `lines[0].quantity`},
				"line id taken": {func(b map[string]any) {
					b["lines"] = []any{map[string]any{"id": 88, "articleDetailId": f.art1, "quantity": 1}}
				}, `lines[0].id`},
				"lot of an untracked product": {func(b map[string]any) {
					b["lines"] = []any{map[string]any{"articleDetailId": f.art1, "quantity": 1, "lot": map[string]any{"number": "L1"}}}
				}, `lines[0].lot`},
				"lot with a date": {func(b map[string]any) {
					b["lines"] = []any{map[string]any{"articleDetailId": f.art1, "quantity": 1, "lot": map[string]any{"number": "L1", "bestBefore": "2030-01-01"}}}
				}, `bestBefore`},
				"id 0":          {func(b map[string]any) { b["id"] = 0 }, `id`},
				"status":        {func(b map[string]any) { b["status"] = "Completed" }, `status`},
				"unknown field": {func(b map[string]any) { b["colour"] = "red" }, `colour`},
			} {
				b := good()
				c.change(b)
				res := f.env.Do(t, "POST", "/api/transfers", b)
				if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), c.mention) {
					t.Errorf("%s: %s, want 400 naming %s", name, res, c.mention)
				}
			}
			if n := ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/transfers", nil))["total"]); n != 1 {
				t.Fatalf("%d transfers after refused ones", n)
			}
			ohError(t, f.env.Do(t, "GET", "/api/transfers/999999", nil), http.StatusNotFound)
			ohError(t, f.env.Do(t, "GET", "/api/transfers/0", nil), http.StatusNotFound)
		})

		t.Run("a shipment is all lines or none and names every failing line", func(t *testing.T) {
			at := f.ledgerTotal(t, "")
			// Line 1 asks for more than it has left, line 2 for more than MAIN holds.
			res := f.post(t, id, "shipments", "ship-1", lines(line(l1, 7), line(l2, 5), line(l2, 1)))
			ohError(t, res, http.StatusBadRequest, fmt.Sprintf("line %d", l1), "lines[0].quantity", fmt.Sprintf("line %d", l2), "lines[2].quantity")
			f.put(t, f.art2, ohWarehouse(f.main), -2)
			res = f.post(t, id, "shipments", "ship-1", lines(line(l1, 2), line(l2, 4)))
			ohError(t, res, http.StatusBadRequest, fmt.Sprintf("line %d", l2), "lines[1].quantity", "insufficient stock")
			// A bin of the destination, an unknown line, a lot, quantity 0, no lines.
			ohError(t, f.post(t, id, "shipments", "", lines(line(l1, 1, "binLocation", map[string]any{"id": f.binB}))), http.StatusBadRequest, "lines[0].binLocation", "source")
			ohError(t, f.post(t, id, "shipments", "", lines(line(999, 1))), http.StatusBadRequest, "lines[0].lineId")
			ohError(t, f.post(t, id, "shipments", "", lines(line(l1, 1, "lot", map[string]any{"number": "L1"}))), http.StatusBadRequest, "lines[0].lot")
			ohError(t, f.post(t, id, "shipments", "", lines(line(l1, 0))), http.StatusBadRequest, "lines[0].quantity")
			ohError(t, f.post(t, id, "shipments", "", map[string]any{"lines": []any{}}), http.StatusBadRequest, "lines")
			ohError(t, f.post(t, id, "shipments", "", lines(line(l1, 1, "binLocation", map[string]any{"id": 424242}))), http.StatusBadRequest, "lines[0]")
			ohError(t, f.post(t, 999999, "shipments", "", lines(line(l1, 1))), http.StatusNotFound)
			if got := tfLines(f.get(t, id)); got != "Open | 0/0/0/0/0 of 6 | 0/0/0/0/0 of 5" {
				t.Fatalf("after refused shipments: %s", got)
			}
			if n := f.ledgerTotal(t, ""); n != at+1 {
				t.Fatalf("ledger grew from %d to %d (one change of stock)", at, n)
			}
		})

		t.Run("shipping takes stock out of the source onto the road, and replays under its key", func(t *testing.T) {
			after := f.last(t)
			// ship-1 was refused above: a refused shipment does not use up its key.
			res := f.post(t, id, "shipments", "ship-1", lines(line(l1, 4, "binLocation", map[string]any{"id": f.binA})))
			sid := f.created(t, res, false)
			if want := fmt.Sprintf("/api/transfers/%d/shipments/%d", id, sid); !strings.HasSuffix(res.Header.Get("Location"), want) {
				t.Fatalf("Location %q", res.Header.Get("Location"))
			}
			replay := f.post(t, id, "shipments", "ship-1", lines(line(l1, 4, "binLocation", map[string]any{"id": f.binA})))
			if replay.Status != http.StatusCreated || replay.Header.Get("Idempotent-Replayed") != "true" || string(replay.Body) != string(res.Body) {
				t.Fatalf("replay %s", replay)
			}
			ohError(t, f.post(t, id, "shipments", "ship-1", lines(line(l1, 1))), http.StatusConflict)
			if got := tfLines(f.get(t, id)); got != "In transit | 4/0/0/0/4 of 6 | 0/0/0/0/0 of 5" {
				t.Fatalf("after the shipment: %s", got)
			}
			a := f.article(t, f.art1)
			if ohInt(t, a["physicalStock"]) != 6 || ohInt(t, a["availableStock"]) != 6 || ohInt(t, a["inTransitStock"]) != 4 || f.stock(t, f.art1, f.second) != 0 {
				t.Fatalf("figures %v", a)
			}
			list := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/articleDetails?filter[0][property]=articleDetail.id&filter[0][value]=%d", f.art1), nil))
			if item := list["data"].([]any)[0].(map[string]any); ohInt(t, item["inTransitStock"]) != 4 {
				t.Fatalf("list item %v", item)
			}
			in, cause := f.changed(t, after, f.art1)
			if in != 4 || cause["type"] != "transfers/ship" || cause["idempotencyKey"] != "ship-1" || cause["orderId"] != nil {
				t.Fatalf("stock.changed in transit %d, cause %v", in, cause)
			}
			if got := f.statusEvents(t, after, id); got != "Open→In transit" {
				t.Fatalf("status events %q", got)
			}
			if got := f.transferEntries(t, id); got != fmt.Sprintf("transferOut -4@%d", f.binA) {
				t.Fatalf("ledger %s", got)
			}
			m := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/transfers/%d/shipments/%d", id, sid), nil))["data"].(map[string]any)
			ml := m["lines"].([]any)[0].(map[string]any)
			if ohInt(t, m["transferId"]) != id || ohInt(t, ml["lineId"]) != l1 || ohInt(t, ml["binLocationId"]) != f.binA || ohInt(t, ml["quantity"]) != 4 || m["user"] != apitest.User {
				t.Fatalf("shipment %v", m)
			}
			ohError(t, f.env.Do(t, "GET", fmt.Sprintf("/api/transfers/%d/receipts/%d", id, sid), nil), http.StatusNotFound)
			// Other entries carry no transferId.
			if n := f.ledgerTotal(t, "?filter[0][property]=stockLedgerEntry.transferId&filter[0][expression]=IS%20NULL"); n != f.ledgerTotal(t, "")-1 {
				t.Fatalf("%d entries without transferId", n)
			}
		})

		t.Run("receiving takes one up to what is in transit into the destination", func(t *testing.T) {
			after := f.last(t)
			ohError(t, f.post(t, id, "receipts", "rcv-1", lines(line(l1, 5))), http.StatusBadRequest, fmt.Sprintf("line %d", l1), "lines[0].quantity")
			ohError(t, f.post(t, id, "receipts", "", lines(line(l2, 1))), http.StatusBadRequest, fmt.Sprintf("line %d", l2), "lines[0].quantity")
			ohError(t, f.post(t, id, "receipts", "", lines(line(l1, 1, "binLocation", map[string]any{"id": f.binA}))), http.StatusBadRequest, "lines[0].binLocation", "destination")
			ohError(t, f.post(t, id, "receipts", "", lines(line(l1, 1, "lot", map[string]any{"number": "L1"}))), http.StatusBadRequest, "lines[0].lot")
			ohError(t, f.post(t, id, "receipts", "", map[string]any{}), http.StatusBadRequest, "lines")
			ohError(t, f.post(t, id, "receipts", "", nil), http.StatusBadRequest)
			res := f.post(t, id, "receipts", "rcv-1", lines(line(l1, 3, "binLocation", map[string]any{"id": f.binB})))
			rid := f.created(t, res, false)
			if !strings.HasSuffix(res.Header.Get("Location"), fmt.Sprintf("/api/transfers/%d/receipts/%d", id, rid)) {
				t.Fatalf("Location %q", res.Header.Get("Location"))
			}
			if got := tfLines(f.get(t, id)); got != "Partially received | 4/3/0/0/1 of 6 | 0/0/0/0/0 of 5" {
				t.Fatalf("after the receipt: %s", got)
			}
			if s, _ := f.mapping(t, f.art1, f.binB); s != 3 || f.stock(t, f.art1, f.second) != 3 || f.inTransit(t, f.art1) != 1 {
				t.Fatalf("bin B-01 holds %d, in transit %d", s, f.inTransit(t, f.art1))
			}
			in, cause := f.changed(t, after, f.art1)
			if in != 1 || cause["type"] != "transfers/receive" || cause["idempotencyKey"] != "rcv-1" {
				t.Fatalf("stock.changed in transit %d, cause %v", in, cause)
			}
			if got := f.statusEvents(t, after, id); got != "In transit→Partially received" {
				t.Fatalf("status events %q", got)
			}
		})

		t.Run("a shipment without lines ships what is left; a Partially received transfer stays so", func(t *testing.T) {
			f.put(t, f.art2, ohWarehouse(f.main), 2)
			after := f.last(t)
			f.created(t, f.post(t, id, "shipments", "", nil), false)
			if got := tfLines(f.get(t, id)); got != "Partially received | 6/3/0/0/3 of 6 | 5/0/0/0/5 of 5" {
				t.Fatalf("after shipping the rest: %s", got)
			}
			if got := f.statusEvents(t, after, id); got != "" {
				t.Fatalf("status events %q", got)
			}
			ohError(t, f.post(t, id, "shipments", "", nil), http.StatusBadRequest, "nothing left to ship")
			ohError(t, f.post(t, id, "shipments", "", map[string]any{}), http.StatusBadRequest, "nothing left to ship")
		})

		t.Run("cancelling returns what is in transit into the source", func(t *testing.T) {
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled"}), http.StatusBadRequest, "inTransit")
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Completed", "inTransit": "return"}), http.StatusBadRequest, "status")
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled", "inTransit": "burn"}), http.StatusBadRequest, "inTransit")
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"inTransit": "return"}), http.StatusBadRequest, "status")
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled", "number": "X"}), http.StatusBadRequest, "number")
			ohError(t, f.env.Do(t, "PUT", "/api/transfers/999999", map[string]any{"status": "Cancelled"}), http.StatusNotFound)
			after := f.last(t)
			ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled", "inTransit": "return"}))
			if got := tfLines(f.get(t, id)); got != "Cancelled | 6/3/3/0/0 of 6 | 5/0/5/0/0 of 5" {
				t.Fatalf("after cancelling: %s", got)
			}
			// Back onto SKU-1's default bin, SKU-2's unknown bin in MAIN.
			if s, _ := f.mapping(t, f.art1, f.binA); s != 7 || f.stock(t, f.art2, f.main) != 5 || f.inTransit(t, f.art1) != 0 || f.inTransit(t, f.art2) != 0 {
				t.Fatalf("A-01 holds %d, SKU-2 in MAIN %d", s, f.stock(t, f.art2, f.main))
			}
			in, cause := f.changed(t, after, f.art2)
			if in != 0 || cause["type"] != "transfers/update" || cause["idempotencyKey"] != nil {
				t.Fatalf("stock.changed in transit %d, cause %v", in, cause)
			}
			if got := f.statusEvents(t, after, id); got != "Partially received→Cancelled" {
				t.Fatalf("status events %q", got)
			}
			want := fmt.Sprintf("transferOut -4@%d, transferIn 3@%d, transferOut -2@%d, transferOut -5@%d, transferReturn 3@%d, transferReturn 5@%d",
				f.binA, f.binB, f.binA, f.nullBin(t, f.main), f.binA, f.nullBin(t, f.main))
			if got := f.transferEntries(t, id); got != want {
				t.Fatalf("ledger\n got %s\nwant %s", got, want)
			}
			ohError(t, f.post(t, id, "shipments", "", nil), http.StatusBadRequest, "Cancelled")
			ohError(t, f.post(t, id, "receipts", "", lines(line(l1, 1))), http.StatusBadRequest, "Cancelled")
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled"}), http.StatusBadRequest, "status")
		})

		t.Run("cancelling writes off what is lost; an Open transfer is cancelled as it is", func(t *testing.T) {
			lostID, tr := f.create(t, map[string]any{"number": "T-LOST", "source": map[string]any{"id": f.main}, "destination": map[string]any{"id": f.second},
				"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
			f.created(t, f.post(t, lostID, "shipments", "", nil), false)
			stockBefore := f.stock(t, f.art1, f.main)
			entries := f.ledgerTotal(t, "")
			after := f.last(t)
			ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", lostID), map[string]any{"status": "Cancelled", "inTransit": "lost"}))
			if got := tfLines(f.get(t, lostID)); got != "Cancelled | 2/0/0/2/0 of 2" {
				t.Fatalf("after losing: %s (%v)", got, tr)
			}
			if f.stock(t, f.art1, f.main) != stockBefore || f.ledgerTotal(t, "") != entries || f.inTransit(t, f.art1) != 0 {
				t.Fatal("losing moved stock")
			}
			if in, cause := f.changed(t, after, f.art1); in != 0 || cause["type"] != "transfers/update" {
				t.Fatalf("stock.changed %d %v", in, cause)
			}
			openID, _ := f.create(t, map[string]any{"number": "T-OPEN", "source": map[string]any{"id": f.main}, "destination": map[string]any{"id": f.second},
				"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
			after = f.last(t)
			ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", openID), map[string]any{"status": "Cancelled"}))
			if got := f.statusEvents(t, after, openID); got != "Open→Cancelled" {
				t.Fatalf("status events %q", got)
			}
			if evs, _ := f.events(t, after, "stock.changed"); len(evs) != 0 {
				t.Fatalf("cancelling an Open transfer changed figures: %v", evs)
			}
		})

		t.Run("a transfer is Completed once everything shipped has arrived; it cannot be cancelled", func(t *testing.T) {
			doneID, tr := f.create(t, map[string]any{"number": "T-DONE", "source": map[string]any{"id": f.main}, "destination": map[string]any{"id": f.second},
				"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
			f.created(t, f.post(t, doneID, "shipments", "", nil), false)
			after := f.last(t)
			f.created(t, f.post(t, doneID, "receipts", "", lines(line(poLineID(t, tr, 0), 2))), false)
			if got := tfLines(f.get(t, doneID)); got != "Completed | 2/2/0/0/0 of 2" {
				t.Fatalf("after receiving everything: %s", got)
			}
			if got := f.statusEvents(t, after, doneID); got != "In transit→Completed" {
				t.Fatalf("status events %q", got)
			}
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", doneID), map[string]any{"status": "Cancelled"}), http.StatusBadRequest, "Completed")
			ohError(t, f.post(t, doneID, "shipments", "", nil), http.StatusBadRequest, "Completed")
		})

		t.Run("lists filter on number, status and warehouses", func(t *testing.T) {
			count := func(query string) int64 {
				return ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/transfers?"+query, nil))["total"])
			}
			for query, want := range map[string]int64{
				"": 4,
				"filter[0][property]=transfer.status&filter[0][value]=Cancelled":                                 3,
				"filter[0][property]=transfer.status&filter[0][value]=Completed":                                 1,
				"filter[0][property]=transfer.number&filter[0][value]=T-L%25":                                    1,
				fmt.Sprintf("filter[0][property]=transfer.sourceWarehouseId&filter[0][value]=%d", f.main):        4,
				fmt.Sprintf("filter[0][property]=transfer.destinationWarehouseId&filter[0][value]=%d", f.main):   0,
				fmt.Sprintf("filter[0][property]=transfer.destinationWarehouseId&filter[0][value]=%d", f.second): 4,
				"sort[0][property]=transfer.number&sort[0][direction]=DESC&limit=1":                              4,
			} {
				if got := count(query); got != want {
					t.Errorf("%q: total %d, want %d", query, got, want)
				}
			}
			ohError(t, f.env.Do(t, "GET", "/api/transfers?filter[0][property]=transfer.colour&filter[0][value]=x", nil), http.StatusBadRequest, "transfer.status")
			ohError(t, f.env.Do(t, "GET", "/api/transfers?filter[0][property]=transfer.sourceWarehouseId&filter[0][value]=0", nil), http.StatusBadRequest)
		})

		t.Run("lot tracking stays while pieces are on the road", func(t *testing.T) {
			art := f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-ROAD"}), false)
			f.put(t, art, ohWarehouse(f.main), 2)
			rid, tr := f.create(t, map[string]any{"number": "T-ROAD", "source": map[string]any{"id": f.main}, "destination": map[string]any{"id": f.second},
				"lines": []any{map[string]any{"articleDetailId": art, "quantity": 2}}})
			f.created(t, f.post(t, rid, "shipments", "", nil), false)
			if f.stock(t, art, f.main) != 0 || f.inTransit(t, art) != 2 {
				t.Fatalf("stock %d, in transit %d", f.stock(t, art, f.main), f.inTransit(t, art))
			}
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", art), map[string]any{"lotTracked": true}), http.StatusBadRequest, "lotTracked")
			f.created(t, f.post(t, rid, "receipts", "", lines(line(poLineID(t, tr, 0), 2))), false)
			if f.stock(t, art, f.second) != 2 || f.inTransit(t, art) != 0 {
				t.Fatalf("stock %d, in transit %d", f.stock(t, art, f.second), f.inTransit(t, art))
			}
		})

		t.Run("a product on a transfer stays", func(t *testing.T) {
			art := f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-T"}), false)
			f.create(t, map[string]any{"number": "T-NAMES", "source": map[string]any{"id": f.main}, "destination": map[string]any{"id": f.second},
				"lines": []any{map[string]any{"articleDetailId": art, "quantity": 1}}})
			ohError(t, f.env.Do(t, "DELETE", fmt.Sprintf("/api/articleDetails/%d", art), nil), http.StatusBadRequest, "transfer")
		})
	})
}

// Lots travel with their pieces: a shipment takes them first expiring first
// out, a receipt books each into the lot it travelled in, and a line with
// several lots on the road must name the one it receives.
func TestTransfersOfLotsHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := tfSetup(t, databaseURL)
		milk := f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "MILK", "lotTracked": true}), false)
		ohBatch(t, f.env.Do(t, "PUT", "/api/stock/change/lots-in", []any{
			map[string]any{"articleDetailId": milk, "quantity": 3, "binLocation": map[string]any{"id": f.binA}, "lot": map[string]any{"number": "SOON", "bestBefore": "2090-01-01"}},
			map[string]any{"articleDetailId": milk, "quantity": 5, "binLocation": map[string]any{"id": f.binA}, "lot": map[string]any{"number": "LATER", "bestBefore": "2091-01-01"}},
			map[string]any{"articleDetailId": milk, "quantity": 4, "binLocation": map[string]any{"id": f.binA}, "lot": map[string]any{"number": "OLD", "bestBefore": "2020-01-01"}},
		}))
		id, tr := f.create(t, map[string]any{"number": "T-MILK", "source": map[string]any{"id": f.main}, "destination": map[string]any{"id": f.second},
			"lines": []any{map[string]any{"articleDetailId": milk, "quantity": 6}, map[string]any{"articleDetailId": milk, "quantity": 1, "lot": map[string]any{"number": "OLD"}}}})
		l1, l2 := poLineID(t, tr, 0), poLineID(t, tr, 1)
		if tr["lines"].([]any)[1].(map[string]any)["lotNumber"] != "OLD" {
			t.Fatalf("lines %v", tr["lines"])
		}
		// The expired lot never ships, even when named; FEFO passes it by.
		ohError(t, f.post(t, id, "shipments", "", lines(line(l2, 1))), http.StatusBadRequest, "lines[0].lot", "expired")
		ohError(t, f.post(t, id, "shipments", "", lines(line(l1, 9))), http.StatusBadRequest, "lines[0].quantity")
		f.created(t, f.post(t, id, "shipments", "", lines(line(l1, 5))), false)
		if got := f.transferEntries(t, id); got != fmt.Sprintf("transferOut -3@%d SOON, transferOut -2@%d LATER", f.binA, f.binA) {
			t.Fatalf("ledger %s", got)
		}
		ohError(t, f.post(t, id, "receipts", "", lines(line(l1, 1))), http.StatusBadRequest, "lines[0].lot", "name the lot")
		ohError(t, f.post(t, id, "receipts", "", lines(line(l1, 1, "lot", map[string]any{"number": "OLD"}))), http.StatusBadRequest, "lines[0].lot", fmt.Sprintf("line %d", l1))
		ohError(t, f.post(t, id, "receipts", "", lines(line(l1, 3, "lot", map[string]any{"number": "LATER"}))), http.StatusBadRequest, "lines[0].quantity")
		f.created(t, f.post(t, id, "receipts", "", lines(line(l1, 3, "lot", map[string]any{"number": "SOON"}), line(l1, 1, "lot", map[string]any{"number": "LATER"}, "binLocation", map[string]any{"id": f.binB}))), false)
		// One lot left on the road: it needs no name.
		f.created(t, f.post(t, id, "receipts", "", lines(line(l1, 1))), false)
		null2 := f.nullBin(t, f.second)
		want := fmt.Sprintf("transferOut -3@%d SOON, transferOut -2@%d LATER, transferIn 3@%d SOON, transferIn 1@%d LATER, transferIn 1@%d LATER", f.binA, f.binA, null2, f.binB, null2)
		if got := f.transferEntries(t, id); got != want {
			t.Fatalf("ledger\n got %s\nwant %s", got, want)
		}
		if got := tfLines(f.get(t, id)); got != "Partially received | 5/5/0/0/0 of 6 | 0/0/0/0/0 of 1" {
			t.Fatalf("transfer %s", got)
		}
		lotsOf := func(bin int64) []any {
			data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/binLocations/%d", bin), nil))["data"].(map[string]any)
			for _, m := range data["articleDetailBinLocationMappings"].([]any) {
				if mm := m.(map[string]any); ohInt(t, mm["articleDetailId"]) == milk {
					return mm["lots"].([]any)
				}
			}
			return nil
		}
		requireLots(t, "destination's unknown bin", lotsOf(null2), lotEntry("SOON", "2090-01-01", 3, 0), lotEntry("LATER", "2091-01-01", 1, 0))
		requireLots(t, "B-01", lotsOf(f.binB), lotEntry("LATER", "2091-01-01", 1, 0))
		// Ship one more LATER and cancel: it goes back in its lot.
		f.created(t, f.post(t, id, "shipments", "", lines(line(l1, 1))), false)
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/transfers/%d", id), map[string]any{"status": "Cancelled", "inTransit": "return"}))
		// No default bin of MILK in MAIN: its unknown bin.
		requireLots(t, "A-01", lotsOf(f.binA), lotEntry("OLD", "2020-01-01", 4, 0), lotEntry("LATER", "2091-01-01", 2, 0))
		requireLots(t, "MAIN's unknown bin", lotsOf(f.nullBin(t, f.main)), lotEntry("LATER", "2091-01-01", 1, 0))
		if got := tfLines(f.get(t, id)); got != "Cancelled | 6/5/1/0/0 of 6 | 0/0/0/0/0 of 1" {
			t.Fatalf("transfer %s", got)
		}
	})
}
