package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
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

// BenchmarkReadAndParseBatch is the HTTP adapter's share of a 1000-operation
// change batch: read, check, fingerprint, and parse every operation, as
// stockEndpoint does.
func BenchmarkReadAndParseBatch(b *testing.B) { benchmarkReadAndParseBatch(b, thousandOperations()) }

func BenchmarkReadAndParseBatchAsSent(b *testing.B) {
	benchmarkReadAndParseBatch(b, thousandOperationsAsSent())
}

func benchmarkReadAndParseBatch(b *testing.B, body []byte) {
	allowed := []string{"articleDetailId", "quantity", "warehouse", "binLocation"}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPut, "/api/stock/change/k", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		req, err := readBatch(httptest.NewRecorder(), r, "stock/change")
		if err != nil {
			b.Fatal(err)
		}
		for _, op := range req.operations {
			if _, err := op.check(allowed); err != nil {
				b.Fatal(err)
			}
			if _, err := parseChange(req.arena, op.fields); err != nil {
				b.Fatal(err)
			}
		}
	}
}
