package http

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
)

// stockEndpoint reads a stock batch and hands it to the use case; parse
// reads one operation, and what it cannot read fails that operation only.
func (h *Handler) stockEndpoint(endpoint string, parse func(map[string]json.RawMessage) (application.StockOperation, error), allowed []string,
	run func(r *http.Request, meta application.BatchMeta, ops []application.StockOperation) (application.BatchOutcome, error)) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		req, err := readBatch(w, r, endpoint)
		if err != nil {
			return err
		}
		ops := make([]application.StockOperation, len(req.operations))
		for i, fields := range req.operations {
			id, err := operationFields(fields, allowed...)
			if err == nil {
				ops[i], err = parse(fields)
			}
			ops[i].OperationID = id
			if err != nil {
				ops[i].Problem = err.Error()
			}
		}
		out, err := run(r, req.meta, ops)
		if err != nil {
			return err
		}
		writeBatch(w, out)
		return nil
	}
}

func (h *Handler) stockRoutes() {
	h.api("PUT /api/stock/set/{idempotencyKey}", h.stockEndpoint("stock/set", parseAtLocation,
		[]string{"articleDetailId", "quantity", "warehouse", "binLocation"},
		func(r *http.Request, meta application.BatchMeta, ops []application.StockOperation) (application.BatchOutcome, error) {
			return h.app.SetStock(r.Context(), meta, ops, renderBatch)
		}))
	h.api("PUT /api/stock/change/{idempotencyKey}", h.stockEndpoint("stock/change", parseAtLocation,
		[]string{"articleDetailId", "quantity", "warehouse", "binLocation"},
		func(r *http.Request, meta application.BatchMeta, ops []application.StockOperation) (application.BatchOutcome, error) {
			return h.app.ChangeStock(r.Context(), meta, ops, renderBatch)
		}))
	h.api("PUT /api/stock/relocate/{idempotencyKey}", h.stockEndpoint("stock/relocate", parseRelocation,
		[]string{"articleDetailId", "quantity", "source", "destination"},
		func(r *http.Request, meta application.BatchMeta, ops []application.StockOperation) (application.BatchOutcome, error) {
			return h.app.RelocateStock(r.Context(), meta, ops, renderBatch)
		}))
}

func parseAtLocation(fields map[string]json.RawMessage) (application.StockOperation, error) {
	var op application.StockOperation
	var err error
	op.ArticleDetailID, op.Quantity, op.At, err = quantityAt(fields, "articleDetailId")
	return op, err
}

// quantityAt reads what set, change and order-detail shipping share: an id
// field, a quantity and a location.
func quantityAt(fields map[string]json.RawMessage, idField string) (id int64, quantity int, at stock.LocationSpec, err error) {
	if id, err = integer(fields, idField, true, false); err != nil {
		return 0, 0, at, err
	}
	q, err := integer(fields, "quantity", true, false)
	if err != nil {
		return 0, 0, at, err
	}
	at, err = locationSpec(fields, "")
	return id, int(q), at, err
}

func parseRelocation(fields map[string]json.RawMessage) (application.StockOperation, error) {
	var op application.StockOperation
	var err error
	if op.ArticleDetailID, err = integer(fields, "articleDetailId", true, false); err != nil {
		return op, err
	}
	if string(fields["quantity"]) == `"all"` {
		op.All = true
	} else {
		quantity, err := integer(fields, "quantity", true, false)
		if err != nil {
			return op, fmt.Errorf(`quantity must be a positive integer or "all", not %s`, string(fields["quantity"]))
		}
		op.Quantity = int(quantity)
	}
	if op.From, err = relocationSide(fields, "source"); err != nil {
		return op, err
	}
	op.To, err = relocationSide(fields, "destination")
	return op, err
}

func relocationSide(fields map[string]json.RawMessage, name string) (stock.LocationSpec, error) {
	inner, present, err := object(fields, name, "warehouse", "binLocation")
	if err != nil {
		return stock.LocationSpec{}, err
	}
	if !present {
		return stock.LocationSpec{}, fmt.Errorf("%s is required", name)
	}
	return locationSpec(inner, name+".")
}
