package http

import (
	"net/http"

	"github.com/shopstock/inventory/application"
)

// shipOrderDetails is the order-detail shipping batch; what an operation
// cannot read fails that operation only.
func (h *Handler) shipOrderDetails(w http.ResponseWriter, r *http.Request) error {
	req, err := readBatch(w, r, "orderDetails/ship")
	if err != nil {
		return err
	}
	ops := make([]application.DetailShipment, len(req.operations))
	allowed := []string{"orderDetailId", "quantity", "warehouse", "binLocation", "lot"}
	for i, op := range req.operations {
		id, err := op.check(allowed)
		if err == nil {
			ops[i], err = parseDetailShipment(op.fields)
		}
		ops[i].OperationID = id
		if err != nil {
			ops[i].Problem = err.Error()
		}
	}
	out, err := h.app.ShipOrderDetails(r.Context(), req.meta, ops, renderBatch)
	if err != nil {
		return err
	}
	writeBatch(w, out)
	return nil
}

func parseDetailShipment(fields jsonFields) (application.DetailShipment, error) {
	var op application.DetailShipment
	var err error
	if op.OrderDetailID, op.Quantity, op.From, err = quantityAt(fields, "orderDetailId"); err != nil {
		return op, err
	}
	op.Lot, err = lotSpec(fields)
	return op, err
}
