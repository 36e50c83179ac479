package http

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/idempotency"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type returnJSON struct {
	ID        int64            `json:"id"`
	OrderID   int64            `json:"orderId"`
	CreatedAt string           `json:"createdAt"`
	User      string           `json:"user"`
	Restock   bool             `json:"restock"`
	Details   []returnLineJSON `json:"details"`
}

type returnLineJSON struct {
	OrderDetailID   int64  `json:"orderDetailId"`
	ArticleDetailID int64  `json:"articleDetailId"`
	Quantity        int    `json:"quantity"`
	WarehouseID     *int64 `json:"warehouseId"`
	BinLocationID   *int64 `json:"binLocationId"`
}

func toReturnJSON(r *order.Return) returnJSON {
	out := returnJSON{ID: r.ID, OrderID: r.OrderID, CreatedAt: r.CreatedAt.UTC().Format(timeLayout), User: r.User, Restock: r.Restock,
		Details: make([]returnLineJSON, len(r.Lines))}
	for i, l := range r.Lines {
		line := returnLineJSON{OrderDetailID: l.OrderDetailID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity}
		if l.WarehouseID != 0 {
			line.WarehouseID, line.BinLocationID = &l.WarehouseID, &l.BinLocationID
		}
		out.Details[i] = line
	}
	return out
}

type returnBody struct {
	Details     []returnLineBody `json:"details" validate:"required"`
	Warehouse   jsontext.Value   `json:"warehouse"`
	BinLocation jsontext.Value   `json:"binLocation"`
	Restock     *bool            `json:"restock"`
}

type returnLineBody struct {
	OrderDetailID int64          `json:"orderDetailId"`
	Quantity      int64          `json:"quantity"`
	Lot           jsontext.Value `json:"lot"`
}

func (h *Handler) returnRoutes() {
	h.api("POST /api/orders/{id}/returns", h.createReturn)
	h.api("GET /api/returns", h.listReturns)
	h.api("GET /api/returns/{id}", h.getReturn)
}

// createReturn takes pieces of an order back. An Idempotency-Key header
// makes a retry safe, by the rules of the batches.
func (h *Handler) createReturn(w http.ResponseWriter, r *http.Request) error {
	ref, err := orderRef(r)
	if err != nil {
		return err
	}
	meta, err := optionalKeyMeta(r)
	if err != nil {
		return err
	}
	raw, err := readBody(r, w)
	if err != nil {
		return err
	}
	var body returnBody
	if err := decodeStrict(raw, &body); err != nil {
		return err
	}
	if err := h.validate(body); err != nil {
		return err
	}
	req := application.ReturnRequest{Restock: body.Restock == nil || *body.Restock}
	if body.Warehouse != nil || body.BinLocation != nil {
		var fields jsonFields
		if body.Warehouse != nil {
			fields = append(fields, jsonField{name: "warehouse", value: body.Warehouse})
		}
		if body.BinLocation != nil {
			fields = append(fields, jsonField{name: "binLocation", value: body.BinLocation})
		}
		for _, f := range fields {
			// Each on its own first, so that a refusal names its property.
			if _, err := locationSpec(jsonFields{f}, ""); err != nil {
				return errs.Invalidf("%v", err).On(f.name)
			}
		}
		spec, err := locationSpec(fields, "")
		if err != nil {
			return errs.Invalidf("%v", err)
		}
		if spec.Warehouse != nil || spec.BinLocation != nil {
			req.To = &spec
		}
	}
	for i, l := range body.Details {
		q, err := stock.ParseQuantity(fmt.Sprintf("details[%d].quantity", i), l.Quantity)
		if err != nil {
			return err
		}
		lot, err := lineLot(l.Lot, fmt.Sprintf("details[%d]", i))
		if err != nil {
			return err
		}
		req.Lines = append(req.Lines, order.ReturnLine{OrderDetailID: l.OrderDetailID, Quantity: q, Lot: lot})
	}
	keyed(&meta, r, raw)
	out, err := h.app.ReturnOrder(r.Context(), meta, ref, req, func(id int64) ([]byte, error) {
		c := created{ID: id, Location: h.location(r, fmt.Sprintf("/api/returns/%d", id))}
		return json.Marshal(dataBody[created]{Success: true, Data: c})
	})
	if err != nil {
		return err
	}
	var stored dataBody[created]
	if err := json.Unmarshal(out.Body, &stored); err == nil && stored.Data.Location != "" {
		w.Header().Set("Location", stored.Data.Location)
	}
	if out.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeRaw(w, http.StatusCreated, out.Body)
	return nil
}

func (h *Handler) listReturns(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.ReturnFields, h.app.Returns, toReturnJSON)
}

func (h *Handler) getReturn(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "return")
	if err != nil {
		return err
	}
	ret, err := h.app.Return(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[returnJSON]{Success: true, Data: toReturnJSON(ret)})
	return nil
}

// keyed names the endpoint and body of a request with an idempotency key,
// which a replay must match.
func keyed(meta *application.BatchMeta, r *http.Request, raw []byte) {
	if meta.Key != "" {
		meta.Endpoint = "POST " + r.URL.Path + "?" + r.URL.RawQuery
		meta.Fingerprint = fingerprint(raw)
	}
}

// optionalKeyMeta is the caller and the Idempotency-Key of a request that
// may carry one (a return, a goods receipt): with a key, a retry is safe by
// the rules of the batches.
func optionalKeyMeta(r *http.Request) (application.BatchMeta, error) {
	meta := application.BatchMeta{User: apiUser(r.Context())}
	keys := r.Header.Values("Idempotency-Key")
	if len(keys) > 1 {
		return meta, errs.Invalidf("send one Idempotency-Key header, not %d", len(keys))
	}
	if len(keys) == 1 {
		key, err := idempotency.ParseKey(keys[0])
		if err != nil {
			return meta, err
		}
		meta.Key = key
	}
	return meta, nil
}
