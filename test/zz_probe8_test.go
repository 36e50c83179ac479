package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

func TestZZProbe8(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		if strings.HasPrefix(databaseURL, "postgres") {
			t.Skip()
		}
		f := poSetup(t, databaseURL)
		env := f.env
		binC := f.created(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "C-01"}), false)
		lt := f.created(t, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "LOT-1", "lotTracked": true}), false)
		n := 0
		b := func(kind string, ops ...map[string]any) {
			n++
			r := env.Do(t, "PUT", fmt.Sprintf("/api/stock/%s/k%d", kind, n), ops)
			t.Logf("%s k%d -> %s", kind, n, r)
		}
		lot := func(num string, bb any) map[string]any {
			m := map[string]any{"number": num}
			if bb != "" {
				m["bestBefore"] = bb
			}
			return m
		}
		bin := func(id int64) map[string]any { return map[string]any{"id": id} }
		wh := map[string]any{"id": f.main}
		b("change", map[string]any{"articleDetailId": lt, "quantity": 3, "binLocation": bin(f.binA), "lot": lot("L2", "2090-02-01")},
			map[string]any{"articleDetailId": lt, "quantity": 2, "binLocation": bin(binC), "lot": lot("L1", "2090-01-01")},
			map[string]any{"articleDetailId": lt, "quantity": 4, "binLocation": bin(binC), "lot": lot("L3", nil)})
		b("set", map[string]any{"articleDetailId": lt, "quantity": 5, "warehouse": wh})
		b("set", map[string]any{"articleDetailId": lt, "quantity": 5, "warehouse": wh, "lot": lot("L2", "")})
		t.Logf("bin A %s", env.Do(t, "GET", fmt.Sprintf("/api/binLocations/%d", f.binA), nil))
		t.Logf("bin C %s", env.Do(t, "GET", fmt.Sprintf("/api/binLocations/%d", binC), nil))
		b("change", map[string]any{"articleDetailId": lt, "quantity": -3, "warehouse": wh})
		t.Logf("lots %s", env.Do(t, "GET", "/api/lots", nil))
		b("change", map[string]any{"articleDetailId": lt, "quantity": -1, "binLocation": bin(binC), "lot": lot("L2", "")})
		b("relocate", map[string]any{"articleDetailId": lt, "quantity": "all", "source": map[string]any{"binLocation": bin(binC)}, "destination": map[string]any{"binLocation": bin(f.binA)}, "lot": lot("L3", "")})
		b("relocate", map[string]any{"articleDetailId": lt, "quantity": 1, "source": map[string]any{"binLocation": bin(f.binA)}, "destination": map[string]any{"warehouse": map[string]any{"id": f.second}}})
		t.Logf("lots %s", env.Do(t, "GET", "/api/lots", nil))
		t.Logf("lots by art %s", env.Do(t, "GET", fmt.Sprintf("/api/lots?filter[0][property]=lot.articleDetailId&filter[0][value]=%d&sort[0][property]=lot.number&sort[0][direction]=DESC", lt), nil))
		t.Logf("lot 1 %s", env.Do(t, "GET", "/api/lots/1", nil))
		b("set", map[string]any{"articleDetailId": lt, "quantity": 0, "binLocation": bin(f.binA), "lot": lot("L1", "")})
		t.Logf("lot L1 after 0 %s", env.Do(t, "GET", "/api/lots?filter[0][property]=lot.number&filter[0][value]=L1", nil))
		t.Logf("ledger %s", env.Do(t, "GET", "/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.lotNumber&filter[0][expression]=IS%20NULL", nil))
	})
}
