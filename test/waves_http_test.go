package test

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for picking waves, on SQLite and PostgreSQL.

// wvFixture is a warehouse with bins, B-1 and C-1 and two
// products, SKU-1 with an EAN and SKU-2 without.
type wvFixture struct {
	*ohFixture
	bins       map[string]int64
	sku1, sku2 int64
}

func wvSetup(t *testing.T, databaseURL string) *wvFixture {
	t.Helper()
	f := &wvFixture{ohFixture: ohSetup(t, databaseURL), bins: map[string]int64{}}
	for _, code := range []string{"A-10", "A-2", "B-1", "C-1"} {
		f.bins[code] = f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": code}), false)
	}
	f.sku1 = f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "W-SKU-1", "ean": "4006381333931"}), false)
	f.sku2 = f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "W-SKU-2"}), false)
	return f
}

// order makes an order of (article, quantity) pairs with position ids
// 10·id+1, 10·id+2, …
func (f *wvFixture) wvOrder(t testing.TB, id int64, lines ...int64) {
	t.Helper()
	var details []any
	for i := 0; i < len(lines); i += 2 {
		details = append(details, map[string]any{"id": id*10 + int64(i/2+1), "articleDetailId": lines[i], "quantity": lines[i+1]})
	}
	f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{"id": id, "number": fmt.Sprintf("W-%d", id),
		"customerEmail": fmt.Sprintf("c%d@example.com", id), "details": details}), false)
}

// wvTask is a task as the API shows it, for comparing.
type wvTask struct {
	ID       int64
	Bin      string
	Number   string
	Quantity int64
	Picked   int64
	Status   string
	Orders   string // "order/detail:quantity …"
}

func wvTasks(t testing.TB, raw any) []wvTask {
	t.Helper()
	var out []wvTask
	for _, x := range raw.([]any) {
		m := x.(map[string]any)
		var orders []string
		for _, o := range m["orders"].([]any) {
			om := o.(map[string]any)
			orders = append(orders, fmt.Sprintf("%d/%d:%d", ohInt(t, om["orderId"]), ohInt(t, om["orderDetailId"]), ohInt(t, om["quantity"])))
		}
		out = append(out, wvTask{ID: ohInt(t, m["id"]), Bin: m["binLocationCode"].(string), Number: m["articleDetailNumber"].(string),
			Quantity: ohInt(t, m["quantity"]), Picked: ohInt(t, m["picked"]), Status: m["status"].(string), Orders: strings.Join(orders, " ")})
	}
	return out
}

func (f *wvFixture) wave(t testing.TB, id int64) map[string]any {
	t.Helper()
	return ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/pickingWaves/%d", id), nil))["data"].(map[string]any)
}

func (f *wvFixture) confirm(t testing.TB, wave, task int64, body map[string]any) *apitest.Response {
	t.Helper()
	return f.env.Do(t, "POST", fmt.Sprintf("/api/pickingWaves/%d/tasks/%d/confirm", wave, task), body)
}

func wvTaskOn(t testing.TB, tasks []wvTask, bin, number string) wvTask {
	t.Helper()
	for _, task := range tasks {
		if task.Bin == bin && task.Number == number && task.Status != "short" {
			return task
		}
	}
	t.Fatalf("no task for %s on %s in %+v", number, bin, tasks)
	return wvTask{}
}

// TestPickingWaveHTTP walks a wave from creation to shipment: the orders
// it fills and skips, the walk, wrong scans, a short bin re-reserved on
// another, and the shipment of the fully picked orders.
func TestPickingWaveHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := wvSetup(t, databaseURL)
		env := f.env
		f.put(t, f.sku1, ohBin(f.bins["A-10"]), 3)
		f.put(t, f.sku1, ohBin(f.bins["A-2"]), 2)
		f.put(t, f.sku2, ohBin(f.bins["B-1"]), 5)
		f.wvOrder(t, 9001, f.sku1, 4)
		f.wvOrder(t, 9002, f.sku1, 1, f.sku2, 2)
		f.wvOrder(t, 9003, f.sku2, 10)
		f.wvOrder(t, 9004, f.sku2, 1)
		f.wvOrder(t, 9005, f.sku2, 1)
		_, last := evFeed(t, env, "after=0&limit=1000")

		// Three orders are filled, 9003 is passed over; 9005 is not tried.
		res := env.Do(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"code": "MAIN"}, "limit": 3})
		waveID := f.created(t, res, false)
		data := res.JSON(t)["data"].(map[string]any)
		want := []wvTask{
			{1, "A-2", "W-SKU-1", 2, 0, "open", "9001/90011:2"},
			{2, "A-10", "W-SKU-1", 3, 0, "open", "9001/90011:2 9002/90021:1"},
			{3, "B-1", "W-SKU-2", 3, 0, "open", "9002/90022:2 9004/90041:1"},
		}
		if got := wvTasks(t, data["tasks"]); !reflect.DeepEqual(got, want) {
			t.Fatalf("tasks\n got %+v\nwant %+v", got, want)
		}
		skipped := data["skipped"].([]any)
		if len(skipped) != 1 || ohInt(t, skipped[0].(map[string]any)["orderId"]) != 9003 ||
			!strings.Contains(fmt.Sprint(skipped[0]), "requested 10, available 3") {
			t.Fatalf("skipped %v", skipped)
		}
		if sf := skipped[0].(map[string]any)["shortfalls"].([]any)[0].(map[string]any); ohInt(t, sf["orderDetailId"]) != 90031 {
			t.Errorf("shortfall %v", sf)
		}
		for id, status := range map[int64]string{9001: "In process", 9002: "In process", 9003: "Open", 9004: "In process", 9005: "Open"} {
			if o := f.order(t, fmt.Sprintf("/api/orders/%d", id)); o["status"] != status {
				t.Errorf("order %d is %v, want %s", id, o["status"], status)
			}
		}
		if _, reserved := f.mapping(t, f.sku1, f.bins["A-10"]); reserved != 3 {
			t.Errorf("A-10 reserves %d, want 3", reserved)
		}
		events, _ := evFeed(t, env, fmt.Sprintf("after=%d&limit=1000&type=stock.changed", last))
		if len(events) != 2 {
			t.Fatalf("%d stock.changed events, want one per product", len(events))
		}
		for _, e := range events {
			if c := e.Data["cause"].(map[string]any); c["type"] != "pickingWaves" {
				t.Errorf("cause %v", c)
			}
		}

		// The same orders cannot be in a second wave while it picks them.
		res = env.Do(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"id": f.main}, "orderIds": []any{9002, 9005}})
		second := f.created(t, res, false)
		data = res.JSON(t)["data"].(map[string]any)
		if s := fmt.Sprint(data["skipped"]); !strings.Contains(s, "9002") || !strings.Contains(s, fmt.Sprintf("picking wave %d", waveID)) {
			t.Errorf("second wave skipped %s", s)
		}
		if got := wvTasks(t, data["tasks"]); len(got) != 1 || got[0].Orders != "9005/90051:1" {
			t.Errorf("second wave tasks %+v", got)
		}
		ohError(t, env.Do(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"id": f.main}, "orderIds": []any{424242}}),
			http.StatusBadRequest, "orderIds", "424242")
		ohError(t, env.Do(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"id": f.main}, "limit": 201}),
			http.StatusBadRequest, "limit")
		ohError(t, env.Do(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"code": "NOPE"}, "limit": 1}),
			http.StatusBadRequest, "NOPE")

		// Lists.
		list := ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/pickingWaves?filter[0][property]=pickingWave.id&filter[0][value]=%d", second), nil))
		if ohInt(t, list["total"]) != 1 {
			t.Errorf("filtered list: %v", list)
		}
		ohError(t, env.Do(t, "GET", "/api/pickingWaves?filter[0][property]=pickingWave.nope&filter[0][value]=1", nil), http.StatusBadRequest, "pickingWave.id")
		ohError(t, env.Do(t, "GET", "/api/pickingWaves/999999", nil), http.StatusNotFound)

		// Wrong scans change nothing.
		ohError(t, f.confirm(t, waveID, 1, map[string]any{"binLocationCode": "A-10", "scan": "W-SKU-1"}), http.StatusConflict,
			`scanned bin location \"A-10\", expected \"A-2\"`)
		ohError(t, f.confirm(t, waveID, 1, map[string]any{"binLocationCode": "A-2", "scan": "W-SKU-2"}), http.StatusConflict,
			"scanned", "expected product W-SKU-1")
		ohError(t, f.confirm(t, waveID, 1, map[string]any{"binLocationCode": "A-2", "scan": "W-SKU-1", "quantity": 3}), http.StatusBadRequest,
			"quantity")
		ohError(t, f.confirm(t, waveID, 99, map[string]any{"binLocationCode": "A-2", "scan": "W-SKU-1"}), http.StatusNotFound)
		ohError(t, f.confirm(t, waveID, 1, map[string]any{"scan": "W-SKU-1"}), http.StatusBadRequest, "binLocationCode")
		if w := f.wave(t, waveID); fmt.Sprint(w["progress"]) != "map[picked:0 short:0 tasks:3]" || wvTasks(t, w["tasks"])[0].Picked != 0 {
			t.Fatalf("after wrong scans: %v", w["progress"])
		}

		// one piece by EAN, one by a GS1 string; the task is picked.
		got := f.confirmed(t, f.confirm(t, waveID, 1, map[string]any{"binLocationCode": "A-2", "scan": "4006381333931"}))
		if got.Picked != 1 || got.Status != "open" {
			t.Fatalf("after one scan %+v", got)
		}
		got = f.confirmed(t, f.confirm(t, waveID, 1, map[string]any{"binLocationCode": "A-2", "scan": "(01)04006381333931"}))
		if got.Picked != 2 || got.Status != "picked" {
			t.Fatalf("after two scans %+v", got)
		}
		ohError(t, f.confirm(t, waveID, 1, map[string]any{"binLocationCode": "A-2", "scan": "W-SKU-1"}), http.StatusBadRequest, "quantity")

		// A-10 holds only 1 of 3: order 9001 (the lowest id) gets it, the
		// other 2 are released, the bin C-1 (stocked since) gives 1 for
		// 9001, and 9002 stays short by 1.
		f.put(t, f.sku1, ohBin(f.bins["C-1"]), 1)
		_, beforeShort := evFeed(t, env, "after=0&limit=1000")
		got = f.confirmed(t, f.confirm(t, waveID, 2, map[string]any{"binLocationCode": "A-10", "scan": "W-SKU-1", "quantity": 1, "short": true}))
		if got.Picked != 1 || got.Quantity != 3 || got.Status != "short" {
			t.Fatalf("short task %+v", got)
		}
		w := f.wave(t, waveID)
		want = []wvTask{
			{1, "A-2", "W-SKU-1", 2, 2, "picked", "9001/90011:2"},
			{2, "A-10", "W-SKU-1", 3, 1, "short", "9001/90011:2 9002/90021:1"},
			{3, "B-1", "W-SKU-2", 3, 0, "open", "9002/90022:2 9004/90041:1"},
			{4, "C-1", "W-SKU-1", 1, 0, "open", "9001/90011:1"},
		}
		if tasks := wvTasks(t, w["tasks"]); !reflect.DeepEqual(tasks, want) {
			t.Fatalf("tasks after the short pick\n got %+v\nwant %+v", tasks, want)
		}
		if s := fmt.Sprint(w["short"]); s != "[map[orderDetailId:90021 orderId:9002 quantity:1]]" {
			t.Errorf("short %s", s)
		}
		// The short pick changed SKU-1's reservedStock (and nothing of SKU-2).
		events, _ = evFeed(t, env, fmt.Sprintf("after=%d&limit=1000&type=stock.changed", beforeShort))
		if len(events) != 1 || ohInt(t, events[0].Data["id"]) != f.sku1 || events[0].Data["cause"].(map[string]any)["type"] != "pickingWaves" ||
			ohInt(t, events[0].Data["reservedStock"]) != 4 {
			t.Errorf("events of the short pick: %+v", events)
		}
		if p := fmt.Sprint(w["progress"]); p != "map[picked:1 short:1 tasks:4]" {
			t.Errorf("progress %s", p)
		}
		// The short bin is up for a count: one open count of A-10 alone,
		// neither blind nor locking.
		counts := ohOK(t, f.env.Do(t, "GET", "/api/counts?filter[0][property]=count.status&filter[0][value]=Open", nil))["data"].([]any)
		if len(counts) != 1 {
			t.Fatalf("open counts after the short pick: %v", counts)
		}
		c := counts[0].(map[string]any)
		bins := c["bins"].([]any)
		if c["blind"] != false || c["lockBins"] != false || len(bins) != 1 || ohInt(t, bins[0].(map[string]any)["binLocationId"]) != f.bins["A-10"] {
			t.Errorf("the short bin's count: %v", c)
		}
		for bin, want := range map[string]int64{"A-2": 2, "A-10": 1, "C-1": 1} {
			if _, reserved := f.mapping(t, f.sku1, f.bins[bin]); reserved != want {
				t.Errorf("%s reserves %d, want %d", bin, reserved, want)
			}
		}

		// B-1: three at once go to 9002 (2) and 9004 (1); C-1 completes 9001.
		f.confirmed(t, f.confirm(t, waveID, 3, map[string]any{"binLocationCode": "B-1", "scan": "W-SKU-2", "quantity": 3}))
		f.confirmed(t, f.confirm(t, waveID, 4, map[string]any{"binLocationCode": "C-1", "scan": "]C10104006381333931"}))

		// Nothing else may take picked pieces: A-2 has 2, both reserved.
		body := ohBatch(t, env.Do(t, "PUT", "/api/stock/change/wv-take", []any{map[string]any{"articleDetailId": f.sku1, "quantity": -1,
			"binLocation": map[string]any{"id": f.bins["A-2"]}}}))
		if body["success"] != false {
			t.Errorf("a stock-out took a picked piece: %v", body)
		}

		mails := f.queuedMails(t)
		shipped := ohOK(t, env.Do(t, "POST", fmt.Sprintf("/api/pickingWaves/%d/ship", waveID), nil))["data"].(map[string]any)
		if s := fmt.Sprint(shipped["shipped"]); s != "[9001 9004]" {
			t.Errorf("shipped %s", s)
		}
		if s := fmt.Sprint(shipped["notShipped"]); !strings.Contains(s, "9002") || !strings.Contains(s, "order detail 90021: 0 of 1 pieces picked") {
			t.Errorf("notShipped %s", s)
		}
		if n := f.queuedMails(t) - mails; n != 2 {
			t.Errorf("%d mails queued, want one per shipped order", n)
		}
		for id, status := range map[int64]string{9001: "Completely delivered", 9004: "Completely delivered", 9002: "In process"} {
			if o := f.order(t, fmt.Sprintf("/api/orders/%d", id)); o["status"] != status {
				t.Errorf("order %d is %v, want %s", id, o["status"], status)
			}
		}
		for bin, want := range map[string][2]int64{"A-2": {0, 0}, "A-10": {2, 0}, "C-1": {0, 0}} {
			if s, r := f.mapping(t, f.sku1, f.bins[bin]); s != want[0] || r != want[1] {
				t.Errorf("%s after shipping: stock %d reserved %d, want %v", bin, s, r, want)
			}
		}
		if s, r := f.mapping(t, f.sku2, f.bins["B-1"]); s != 4 || r != 3 {
			t.Errorf("B-1 after shipping: stock %d reserved %d, want 4 and the 2 of 9002 and 1 of 9005", s, r)
		}
		again := ohOK(t, env.Do(t, "POST", fmt.Sprintf("/api/pickingWaves/%d/ship", waveID), map[string]any{}))["data"].(map[string]any)
		if s := fmt.Sprint(again["shipped"]); s != "[]" || !strings.Contains(fmt.Sprint(again["notShipped"]), "W-9001 is shipped") {
			t.Errorf("shipping again: %v", again)
		}
		ohError(t, env.Do(t, "POST", "/api/pickingWaves/999999/ship", nil), http.StatusNotFound)
	})
}

func (f *wvFixture) confirmed(t testing.TB, res *apitest.Response) wvTask {
	t.Helper()
	return wvTasks(t, []any{ohOK(t, res)["data"]})[0]
}

// TestPickingWaveShortWithNothingFoundHTTP: a short task that found
// nothing needs only the bin scanned, and a lot-tracked task checks the
// lot of a GS1 scan.
func TestPickingWaveShortWithNothingFoundHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := wvSetup(t, databaseURL)
		env := f.env
		lotted := f.created(t, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "W-LOT", "ean": "96385074", "lotTracked": true}), false)
		res := ohBatch(t, env.Do(t, "PUT", "/api/stock/change/wv-lot", []any{map[string]any{"articleDetailId": lotted, "quantity": 2,
			"binLocation": map[string]any{"id": f.bins["B-1"]}, "lot": map[string]any{"number": "L1"}}}))
		if res["success"] != true {
			t.Fatalf("stock in: %v", res)
		}
		f.put(t, f.sku2, ohBin(f.bins["A-2"]), 1)
		f.wvOrder(t, 9101, f.sku2, 1, lotted, 2)
		waveID := f.created(t, env.Do(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"id": f.main}, "orderIds": []any{9101}}), false)
		tasks := wvTasks(t, f.wave(t, waveID)["tasks"])
		lotTask, plain := wvTaskOn(t, tasks, "B-1", "W-LOT"), wvTaskOn(t, tasks, "A-2", "W-SKU-2")
		ohError(t, f.confirm(t, waveID, lotTask.ID, map[string]any{"binLocationCode": "B-1", "scan": "(01)00000096385074(10)L2"}),
			http.StatusConflict, `scanned lot \"L2\", expected lot \"L1\"`)
		f.confirmed(t, f.confirm(t, waveID, lotTask.ID, map[string]any{"binLocationCode": "B-1", "scan": "0100000096385074\u001d10L1", "quantity": 2}))

		got := f.confirmed(t, f.confirm(t, waveID, plain.ID, map[string]any{"binLocationCode": "A-2", "short": true}))
		if got.Status != "short" || got.Picked != 0 {
			t.Fatalf("short task %+v", got)
		}
		w := f.wave(t, waveID)
		if s := fmt.Sprint(w["short"]); s != "[map[orderDetailId:91011 orderId:9101 quantity:1]]" {
			t.Errorf("short %s", s)
		}
		if _, reserved := f.mapping(t, f.sku2, f.bins["A-2"]); reserved != 0 {
			t.Errorf("A-2 still reserves %d", reserved)
		}
		shipped := ohOK(t, env.Do(t, "POST", fmt.Sprintf("/api/pickingWaves/%d/ship", waveID), nil))["data"].(map[string]any)
		if fmt.Sprint(shipped["shipped"]) != "[]" || !slices.ContainsFunc(shipped["notShipped"].([]any), func(x any) bool {
			return ohInt(t, x.(map[string]any)["orderId"]) == 9101
		}) {
			t.Errorf("ship %v", shipped)
		}
	})
}
