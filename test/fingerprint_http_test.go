package test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestARetryWrittenDifferentlyIsReplayed: a batch retry is compared with
// the first request as canonical JSON (RFC 8785), so a client that
// serialises the same batch another way gets the stored answer, not a 409.
func TestARetryWrittenDifferentlyIsReplayed(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := &ohFixture{env: apitest.New(t, databaseURL)}
		f.main = f.created(t, f.env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main"}), true)
		f.art1 = f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-1"}), false)

		first := fmt.Sprintf(`[{"articleDetailId":%d,"quantity":2,"warehouse":{"code":"MAIN"}}]`, f.art1)
		retry := fmt.Sprintf(`[ { "warehouse" : { "code" : "\u004dAIN" }, "quantity" : 2.0, "articleDetailId" : %d.0 } ]`, f.art1)
		other := fmt.Sprintf(`[{"articleDetailId":%d,"quantity":3,"warehouse":{"code":"MAIN"}}]`, f.art1)

		res := f.env.Do(t, "PUT", "/api/stock/change/jcs", first)
		ohBatch(t, res)
		again := f.env.Do(t, "PUT", "/api/stock/change/jcs", retry)
		if again.Status != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(res.Body) {
			t.Fatalf("the same batch written differently: %s (replayed %q), want the stored answer", again, again.Header.Get("Idempotent-Replayed"))
		}
		ohError(t, f.env.Do(t, "PUT", "/api/stock/change/jcs", other), http.StatusConflict)
		if got := f.stock(t, f.art1, f.main); got != 2 {
			t.Fatalf("stock = %d, want 2: the retry must not apply again", got)
		}
	})
}
