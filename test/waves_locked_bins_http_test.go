package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestShippingAWaveWithALockedBinHTTP: an order of a wave whose picked
// pieces lie on a bin an open count locks is not shipped, with a reason
// naming the bin and the count, and keeps its reservations; the wave's
// other orders ship. Once the count is cancelled, it ships.
func TestShippingAWaveWithALockedBinHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := wvSetup(t, databaseURL)
		env := f.env
		f.put(t, f.sku1, ohBin(f.bins["A-2"]), 2)
		f.put(t, f.sku2, ohBin(f.bins["B-1"]), 5)
		f.wvOrder(t, 9001, f.sku1, 1)
		f.wvOrder(t, 9002, f.sku2, 1)
		waveID := f.created(t, env.Do(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"id": f.main}, "limit": 5}), false)
		tasks := wvTasks(t, f.wave(t, waveID)["tasks"])
		f.confirmed(t, f.confirm(t, waveID, wvTaskOn(t, tasks, "A-2", "W-SKU-1").ID, map[string]any{"binLocationCode": "A-2", "scan": "W-SKU-1"}))
		f.confirmed(t, f.confirm(t, waveID, wvTaskOn(t, tasks, "B-1", "W-SKU-2").ID, map[string]any{"binLocationCode": "B-1", "scan": "W-SKU-2"}))
		ct := &ctFixture{ohFixture: f.ohFixture}
		count := ct.open(t, map[string]any{"warehouse": map[string]any{"id": f.main}, "binLocations": []any{map[string]any{"id": f.bins["A-2"]}}, "lockBins": true})

		shipped := ohOK(t, env.Do(t, "POST", fmt.Sprintf("/api/pickingWaves/%d/ship", waveID), nil))["data"].(map[string]any)
		notShipped := shipped["notShipped"].([]any)
		if fmt.Sprint(shipped["shipped"]) != "[9002]" || len(notShipped) != 1 {
			t.Fatalf("ship with A-2 locked: %v", shipped)
		}
		n := notShipped[0].(map[string]any)
		if reason := fmt.Sprint(n["reason"]); ohInt(t, n["orderId"]) != 9001 || !strings.Contains(reason, `"A-2"`) || !strings.Contains(reason, fmt.Sprintf("count %d", count)) {
			t.Fatalf("not shipped %v, want order 9001 for A-2 and count %d", n, count)
		}
		if o := f.order(t, "/api/orders/9001"); o["status"] != "In process" {
			t.Fatalf("order 9001 is %v", o["status"])
		}
		if s, r := f.mapping(t, f.sku1, f.bins["A-2"]); s != 2 || r != 1 {
			t.Fatalf("A-2 holds %d, reserves %d", s, r)
		}

		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d", count), map[string]any{"status": "Cancelled"}))
		shipped = ohOK(t, env.Do(t, "POST", fmt.Sprintf("/api/pickingWaves/%d/ship", waveID), nil))["data"].(map[string]any)
		if fmt.Sprint(shipped["shipped"]) != "[9001]" {
			t.Fatalf("ship after the count: %v", shipped)
		}
	})
}
