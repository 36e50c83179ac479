package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
)

func thousandOperations() []byte {
	ops := make([]map[string]any, 1000)
	for i := range ops {
		ops[i] = map[string]any{
			"id": i, "articleDetailId": i%100 + 1, "quantity": 1,
			"binLocation": map[string]any{"code": fmt.Sprintf("B%d", i), "warehouseId": 1},
		}
	}
	body, _ := json.Marshal(ops)
	return body
}

// thousandOperationsAsSent is thousandOperations as a client that encodes
// structs sends it: keys in the order of the fields, not sorted, so that the
// fingerprint must reorder every operation, and indented.
func thousandOperationsAsSent() []byte {
	type binLocation struct {
		Code        string `json:"code"`
		WarehouseID int    `json:"warehouseId"`
	}
	type operation struct {
		ID              int         `json:"id"`
		ArticleDetailID int         `json:"articleDetailId"`
		Quantity        int         `json:"quantity"`
		BinLocation     binLocation `json:"binLocation"`
	}
	ops := make([]operation, 1000)
	for i := range ops {
		ops[i] = operation{ID: i, ArticleDetailID: i%100 + 1, Quantity: 1, BinLocation: binLocation{Code: fmt.Sprintf("B%d", i), WarehouseID: 1}}
	}
	body, _ := json.MarshalIndent(ops, "", " ")
	return body
}

// BenchmarkBatchJSON is the HTTP adapter's share of a 1000-operation change
// batch, the part that is JSON: read and check the body, fingerprint it,
// parse every operation as stockEndpoint does, and render the result.
// A whole batch request takes about 20 ms.
func BenchmarkBatchJSON(b *testing.B) {
	for _, body := range []struct {
		name string
		raw  []byte
	}{{"sorted", thousandOperations()}, {"as-sent", thousandOperationsAsSent()}} {
		b.Run(body.name, func(b *testing.B) {
			allowed := []string{"articleDetailId", "quantity", "warehouse", "binLocation", "lot"}
			b.SetBytes(int64(len(body.raw)))
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPut, "/api/stock/change/k", bytes.NewReader(body.raw))
				r.Header.Set("Content-Type", "application/json")
				req, err := readBatch(httptest.NewRecorder(), r, "stock/change")
				if err != nil {
					b.Fatal(err)
				}
				result := application.BatchResult{Success: true, IdempotencyKey: "k", CreatedAt: time.Now(),
					Results: make([]application.OperationResult, len(req.operations))}
				for i, op := range req.operations {
					id, err := op.check(allowed)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := parseChange(op.fields); err != nil {
						b.Fatal(err)
					}
					result.Results[i] = application.OperationResult{OperationID: id, Success: true}
				}
				if _, err := renderBatch(result); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
