package test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// batchResults sends one stock batch and returns its results' success and
// message.
func (f *ctFixture) batch(t testing.TB, endpoint, key string, ops ...map[string]any) []map[string]any {
	t.Helper()
	body := ohBatch(t, f.env.Do(t, "PUT", "/api/"+endpoint+"/"+key, ops))
	var out []map[string]any
	for _, r := range body["results"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func change(article, bin int64, quantity int) map[string]any {
	return map[string]any{"articleDetailId": article, "quantity": quantity, "binLocation": map[string]any{"id": bin}}
}

func relocate(article, from, to int64, quantity int) map[string]any {
	return map[string]any{"articleDetailId": article, "quantity": quantity,
		"source": map[string]any{"binLocation": map[string]any{"id": from}}, "destination": map[string]any{"binLocation": map[string]any{"id": to}}}
}

func refusedByCount(t testing.TB, r map[string]any, count int64) {
	t.Helper()
	msg, _ := r["message"].(string)
	if r["success"] != false || !strings.Contains(msg, `"A-01"`) || !strings.Contains(msg, fmt.Sprintf("count %d", count)) {
		t.Fatalf("result %v, want a failure naming A-01 and count %d", r, count)
	}
}

// TestLockedBinsMoveNoStockHTTP: while a count with lockBins is Open,
// every operation naming one of its bins fails (a batch operation alone,
// a single request with 409), the strategy passes the bin by, and
// reservations are no movement; afterwards the same operations succeed.
func TestLockedBinsMoveNoStockHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ctSetup(t, databaseURL)
		main := map[string]any{"id": f.main}
		// An order holding SKU-2 on A-01 (the only bin that has it), and a
		// shipped order to return.
		held, _ := f.newOrder(t, map[string]any{"number": "LK-1", "details": []any{map[string]any{"articleDetailId": f.art2, "quantity": 1}}})
		ohOK(t, f.env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", held), map[string]any{"warehouse": main}))
		shipped, _ := f.newOrder(t, map[string]any{"number": "LK-2", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", shipped), map[string]any{"warehouse": main}))
		poID, po := (&poFixture{ohFixture: f.ohFixture}).create(t, map[string]any{"number": "PO-LK", "warehouse": main,
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 5}}})

		id := f.open(t, map[string]any{"warehouse": main, "binLocations": []any{map[string]any{"id": f.binA}}, "lockBins": true})
		if c := f.count(t, id); c["lockBins"] != true {
			t.Fatalf("count %v", c)
		}

		// Batches: the operations on A-01 fail alone.
		rs := f.batch(t, "stock/change", "lk-change", change(f.art1, f.binA, -1), change(f.art1, f.binB, 1), change(f.art1, f.binA, 1))
		refusedByCount(t, rs[0], id)
		refusedByCount(t, rs[2], id)
		if rs[1]["success"] != true {
			t.Fatalf("B-01 is not locked: %v", rs[1])
		}
		refusedByCount(t, f.batch(t, "stock/relocate", "lk-out", relocate(f.art1, f.binA, f.binC, 1))[0], id)
		refusedByCount(t, f.batch(t, "stock/relocate", "lk-in", relocate(f.art1, f.binB, f.binA, 1))[0], id)
		refusedByCount(t, f.batch(t, "stock/set", "lk-set", map[string]any{"articleDetailId": f.art1, "quantity": 10, "binLocation": map[string]any{"id": f.binA}})[0], id)

		// The strategy passes A-01 by: SKU-1 goes from B-01, SKU-2 (only on
		// A-01) falls short.
		if r := f.batch(t, "stock/change", "lk-wh", map[string]any{"articleDetailId": f.art1, "quantity": -3, "warehouse": main})[0]; r["success"] != true {
			t.Fatalf("taking from B-01: %v", r)
		}
		if r := f.batch(t, "stock/change", "lk-short", map[string]any{"articleDetailId": f.art1, "quantity": -1, "warehouse": main})[0]; r["success"] != false ||
			!strings.Contains(r["message"].(string), "insufficient stock") {
			t.Fatalf("only the locked bin holds SKU-1: %v", r)
		}
		short, _ := f.newOrder(t, map[string]any{"number": "LK-3", "details": []any{map[string]any{"articleDetailId": f.art2, "quantity": 1}}})
		ohError(t, f.env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", short), map[string]any{"warehouse": main}), http.StatusBadRequest, "insufficient")

		// Single requests: 409 naming the bin and the count.
		ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", held), map[string]any{"warehouse": main}), http.StatusConflict, "A-01", fmt.Sprintf("count %d", id))
		ohError(t, (&poFixture{ohFixture: f.ohFixture}).receive(t, poID, "", line(poLineID(t, po, 0), 1, "binLocation", map[string]any{"id": f.binA})),
			http.StatusConflict, "A-01", fmt.Sprintf("count %d", id))
		o := f.order(t, fmt.Sprintf("/api/orders/%d", shipped))
		ohError(t, f.returnRequest(t, fmt.Sprintf("/api/orders/%d", shipped), "", map[string]any{"details": []any{
			map[string]any{"orderDetailId": ohDetailID(t, o, 0), "quantity": 1}}, "binLocation": map[string]any{"id": f.binA}}),
			http.StatusConflict, "A-01", fmt.Sprintf("count %d", id))
		// Reservations are no movement: releasing them works.
		ohOK(t, f.env.Do(t, "DELETE", fmt.Sprintf("/api/orders/%d/pickingList", held), nil))
		if s, _ := f.mapping(t, f.art1, f.binA); s != 10 {
			t.Fatalf("SKU-1 on the locked A-01: %d, want 10", s)
		}

		// Cancelled, the bin takes every movement again.
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d", id), map[string]any{"status": "Cancelled"}))
		for _, r := range f.batch(t, "stock/change", "lk-after", change(f.art1, f.binA, -1), change(f.art1, f.binA, 1)) {
			if r["success"] != true {
				t.Fatalf("after the count: %v", r)
			}
		}
		ohOK(t, f.env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", held), map[string]any{"warehouse": main}))
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", held), map[string]any{"warehouse": main}))
	})
}

// TestClientsHammeringLockedBins: 16 clients send batches that move stock
// on a locked bin and on a free one at once; every operation on the locked
// bin fails and every other succeeds, until the count is applied; then
// all succeed.
func TestClientsHammeringLockedBins(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ctSetup(t, databaseURL)
		main := map[string]any{"id": f.main}
		id := f.open(t, map[string]any{"warehouse": main, "binLocations": []any{map[string]any{"id": f.binA}}, "lockBins": true})
		const clients, rounds = 16, 4
		hammer := func(phase string, locked bool) {
			var wg sync.WaitGroup
			errors := make(chan string, clients*rounds*2)
			for c := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for r := range rounds {
						rs := f.batch(t, "stock/change", fmt.Sprintf("%s-%d-%d", phase, c, r),
							change(f.art1, f.binA, 1), change(f.art2, f.binB, 1), change(f.art1, f.binA, -1))
						for i, res := range rs {
							onA := i != 1
							msg, _ := res["message"].(string)
							switch {
							case onA && locked && (res["success"] != false || !strings.Contains(msg, fmt.Sprintf("count %d", id))):
								errors <- fmt.Sprintf("client %d: locked A-01 took %v", c, res)
							case (!onA || !locked) && res["success"] != true:
								errors <- fmt.Sprintf("client %d: %v", c, res)
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errors)
			for e := range errors {
				t.Error(e)
			}
		}
		hammer("locked", true)
		if s, _ := f.mapping(t, f.art1, f.binA); s != 10 {
			t.Fatalf("SKU-1 on the locked A-01: %d", s)
		}
		if s, _ := f.mapping(t, f.art2, f.binB); s != clients*rounds {
			t.Fatalf("SKU-2 on B-01: %d, want %d", s, clients*rounds)
		}
		ohOK(t, f.countBin(t, id, f.binA, found(f.art1, 10), found(f.art2, 4)))
		ohOK(t, f.apply(t, id, ""))
		hammer("applied", false)
		if s, _ := f.mapping(t, f.art1, f.binA); s != 10 {
			t.Fatalf("SKU-1 on A-01 after: %d", s)
		}
	})
}
