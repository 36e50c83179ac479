package http

import (
	"fmt"
	"net/http"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
)

// stockEndpoint reads a stock batch into domain operations and hands it to
// the one batch use case; parse reads one operation, and what it cannot read
// fails that operation only.
func (h *Handler) stockEndpoint(endpoint string, parse func(jsonFields) (stock.Operation, error), allowed []string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		req, err := readBatch(w, r, endpoint)
		if err != nil {
			return err
		}
		ops := make([]application.BatchOperation, len(req.operations))
		for i, op := range req.operations {
			id, err := op.check(allowed)
			if err == nil {
				ops[i].Op, err = parse(op.fields)
			}
			ops[i].OperationID = id
			if err != nil {
				ops[i].Problem = err.Error()
			}
		}
		out, err := h.app.StockBatch(r.Context(), req.meta, ops, renderBatch)
		if err != nil {
			return err
		}
		writeBatch(w, out)
		return nil
	}
}

func (h *Handler) stockRoutes() {
	atLocation := []string{"articleDetailId", "quantity", "warehouse", "binLocation", "lot"}
	h.api("PUT /api/stock/set/{idempotencyKey}", h.stockEndpoint("stock/set", parseSet, atLocation))
	h.api("PUT /api/stock/change/{idempotencyKey}", h.stockEndpoint("stock/change", parseChange, atLocation))
	h.api("PUT /api/stock/relocate/{idempotencyKey}", h.stockEndpoint("stock/relocate", parseRelocation,
		[]string{"articleDetailId", "quantity", "source", "destination", "lot"}))
}

func parseSet(fields jsonFields) (stock.Operation, error) {
	article, quantity, at, err := quantityAt(fields, "articleDetailId")
	if err != nil {
		return nil, err
	}
	lot, err := lotSpec(fields)
	return stock.Set{ArticleDetailID: article, At: at, Quantity: quantity, Lot: lot}, err
}

func parseChange(fields jsonFields) (stock.Operation, error) {
	article, quantity, at, err := quantityAt(fields, "articleDetailId")
	if err != nil {
		return nil, err
	}
	lot, err := lotSpec(fields)
	return stock.Change{ArticleDetailID: article, At: at, Quantity: quantity, Lot: lot}, err
}

// quantityAt reads what set, change and order-detail shipping share: an id
// field, a quantity and a location.
func quantityAt(fields jsonFields, idField string) (id int64, quantity int, at stock.LocationSpec, err error) {
	if id, err = identifier(fields, idField, true); err != nil {
		return 0, 0, at, err
	}
	if quantity, err = quantityField(fields); err != nil {
		return 0, 0, at, err
	}
	at, err = locationSpec(fields, "")
	return id, quantity, at, err
}

// quantityField reads the required `quantity` within the domain's bounds.
func quantityField(fields jsonFields) (int, error) {
	q, err := integer(fields, "quantity", true, false)
	if err != nil {
		return 0, err
	}
	return stock.ParseQuantity("quantity", q)
}

func parseRelocation(fields jsonFields) (stock.Operation, error) {
	var op stock.Relocate
	var err error
	if op.ArticleDetailID, err = identifier(fields, "articleDetailId", true); err != nil {
		return op, err
	}
	quantity, _ := fields.get("quantity")
	if string(quantity) == `"all"` {
		op.All = true
	} else {
		if _, err := integer(fields, "quantity", true, false); err != nil {
			return op, fmt.Errorf(`quantity must be a positive integer or "all", not %s`, string(quantity))
		}
		if op.Quantity, err = quantityField(fields); err != nil {
			return op, err
		}
	}
	if op.From, err = relocationSide(fields, "source"); err != nil {
		return op, err
	}
	if op.To, err = relocationSide(fields, "destination"); err != nil {
		return op, err
	}
	op.Lot, err = lotSpec(fields)
	return op, err
}

func relocationSide(fields jsonFields, name string) (stock.LocationSpec, error) {
	var members [2]jsonField
	inner, present, err := object(members[:0], fields, name, "warehouse", "binLocation")
	if err != nil {
		return stock.LocationSpec{}, err
	}
	if !present {
		return stock.LocationSpec{}, fmt.Errorf("%s is required", name)
	}
	return locationSpec(inner, name+".")
}
