package test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestEveryOperationDocumentsTheHeaderLimit: headers over 64 KiB are a 431
// whatever the route, before it runs, so every operation of the API
// document lists 431 among its answers, and the answer is the one it
// documents.
func TestEveryOperationDocumentsTheHeaderLimit(t *testing.T) {
	t.Parallel()
	doc := apitest.Spec(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.Responses.Status(http.StatusRequestHeaderFieldsTooLarge) == nil {
				t.Errorf("%s %s does not document 431", method, path)
			}
		}
	}
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		for _, route := range []struct{ method, path string }{
			{"GET", "/api/users"}, {"PUT", "/api/orders/1"}, {"POST", "/api/orders/1/pickingList"}, {"POST", "/api/orders/1/returns"},
			{"GET", "/api/returns"}, {"GET", "/api/purchaseOrders/1/receipts"}, {"GET", "/api/lots"}, {"GET", "/api/stock.csv"},
			{"PUT", "/api/stock/import/set/k"},
		} {
			req, _ := http.NewRequest(route.method, route.path, strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Padding", strings.Repeat("p", 65<<10))
			req.SetBasicAuth(apitest.User, apitest.Key)
			if res := env.DoRaw(t, req); res.Status != http.StatusRequestHeaderFieldsTooLarge {
				t.Errorf("%s %s with 65 KiB of headers: %s, want 431", route.method, route.path, res)
			}
		}
	})
}
