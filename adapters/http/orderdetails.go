package http

import (
	"encoding/json"
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
	for i, fields := range req.operations {
		id, err := operationFields(fields, "orderDetailId", "quantity", "warehouse", "binLocation")
		if err == nil {
			err = operationTextProblem(fields)
		}
		if err == nil {
			ops[i], err = parseDetailShipment(fields)
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

func parseDetailShipment(fields map[string]json.RawMessage) (application.DetailShipment, error) {
	var op application.DetailShipment
	var err error
	op.OrderDetailID, op.Quantity, op.From, err = quantityAt(fields, "orderDetailId")
	return op, err
}
