package http

import (
	"net/http"
	"strconv"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type orderJSON struct {
	ID            int64             `json:"id"`
	Number        string            `json:"number"`
	Status        string            `json:"status"`
	CustomerEmail string            `json:"customerEmail"`
	Details       []orderDetailJSON `json:"details"`
}

type orderDetailJSON struct {
	ID              int64  `json:"id"`
	ArticleDetailID int64  `json:"articleDetailId"`
	Quantity        int    `json:"quantity"`
	Shipped         int    `json:"shipped"`
	Status          string `json:"status"`
	Returned        int    `json:"returned"`
}

func toOrderJSON(o *order.Order) orderJSON {
	out := orderJSON{ID: o.ID(), Number: o.Number(), Status: string(o.Status()), CustomerEmail: o.CustomerEmail()}
	ds := o.Details()
	out.Details = make([]orderDetailJSON, len(ds))
	for i, d := range ds {
		out.Details[i] = orderDetailJSON{
			ID: d.ID(), ArticleDetailID: d.ArticleDetailID(), Quantity: d.Quantity(), Shipped: d.Shipped(), Status: string(d.Status()),
			Returned: d.Returned(),
		}
	}
	return out
}

type orderCreateBody struct {
	ID            *int64                  `json:"id" validate:"omitempty,id"`
	Number        string                  `json:"number" validate:"required"`
	CustomerEmail string                  `json:"customerEmail"`
	Status        string                  `json:"status"`
	Details       []orderDetailCreateBody `json:"details" validate:"required,dive"`
}

type orderDetailCreateBody struct {
	ID              *int64 `json:"id" validate:"omitempty,id"`
	ArticleDetailID int64  `json:"articleDetailId" validate:"id"`
	Quantity        int    `json:"quantity"`
	Shipped         int    `json:"shipped"`
	Status          string `json:"status"`
}

type orderChangeBody struct {
	Status        *string                 `json:"status"`
	CustomerEmail *string                 `json:"customerEmail"`
	Details       []orderDetailChangeBody `json:"details"`
}

type orderDetailChangeBody struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

type orderShipBody struct {
	Warehouse          *warehouseRefBody `json:"warehouse"`
	SuppressStatusMail bool              `json:"suppressStatusMail"`
}

type warehouseRefBody struct {
	ID   int64  `json:"id" validate:"omitempty,id"`
	Code string `json:"code"`
}

func (h *Handler) orderRoutes() {
	h.api("GET /api/orders", h.listOrders)
	h.api("POST /api/orders", h.createOrder)
	h.api("GET /api/orders/{id}", h.getOrder)
	h.api("PUT /api/orders/{id}", h.changeOrder)
	h.api("PUT /api/orders/{id}/ship", h.shipOrder)
	h.api("PUT /api/orderDetails/ship/{idempotencyKey}", h.shipOrderDetails)
}

func (h *Handler) listOrders(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.OrderFields, h.app.Orders, toOrderJSON)
}

func (h *Handler) createOrder(w http.ResponseWriter, r *http.Request) error {
	var body orderCreateBody
	if err := h.decode(w, r, &body); err != nil {
		return err
	}
	p := order.NewOrder{
		ID: valueOrZero(body.ID), Number: body.Number, CustomerEmail: body.CustomerEmail, Status: body.Status,
		Details: make([]order.NewDetail, len(body.Details)),
	}
	for i, d := range body.Details {
		p.Details[i] = order.NewDetail{
			ID: valueOrZero(d.ID), ArticleDetailID: d.ArticleDetailID, Quantity: d.Quantity, Shipped: d.Shipped, Status: d.Status,
		}
	}
	id, err := h.app.CreateOrder(r.Context(), p)
	if err != nil {
		return err
	}
	h.writeCreated(w, r, "/api/orders", id, false)
	return nil
}

// orderRef reads the path id: a database id, or the order number when the
// query says useNumberAsId.
func orderRef(r *http.Request) (application.OrderRef, error) {
	byNumber := false
	query, err := parseQuery(r)
	if err != nil {
		return application.OrderRef{}, err
	}
	if raw := query.Get("useNumberAsId"); raw != "" {
		v, err := strconv.ParseBool(raw)
		if err != nil {
			return application.OrderRef{}, errs.InvalidFields(errs.FieldError{Property: "useNumberAsId", Message: "must be true, false, 1 or 0"})
		}
		byNumber = v
	}
	if byNumber {
		number := r.PathValue("id")
		// No stored order has a number that breaks the text rules.
		if _, err := code.Parse(number); err != nil {
			return application.OrderRef{}, notFoundError("order", number)
		}
		return application.OrderRef{Number: number}, nil
	}
	id, err := pathID(r, "id", "order")
	return application.OrderRef{ID: id}, err
}

func (h *Handler) getOrder(w http.ResponseWriter, r *http.Request) error {
	ref, err := orderRef(r)
	if err != nil {
		return err
	}
	o, err := h.app.Order(r.Context(), ref)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[orderJSON]{Success: true, Data: toOrderJSON(o)})
	return nil
}

func (h *Handler) shipOrder(w http.ResponseWriter, r *http.Request) error {
	ref, err := orderRef(r)
	if err != nil {
		return err
	}
	var body orderShipBody
	sent, err := optionalBody(w, r, &body)
	if err != nil {
		return err
	}
	if sent {
		if err := h.validate(body); err != nil {
			return err
		}
	}
	var from *stock.WarehouseSpec
	if body.Warehouse != nil {
		from = &stock.WarehouseSpec{ID: body.Warehouse.ID, Code: body.Warehouse.Code}
	}
	if err := h.app.ShipOrder(r.Context(), ref, from, body.SuppressStatusMail, apiUser(r.Context())); err != nil {
		return namedWarehouse(err)
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

// changeOrder changes statuses and the customer address; the order's
// transition rules decide what is possible.
func (h *Handler) changeOrder(w http.ResponseWriter, r *http.Request) error {
	ref, err := orderRef(r)
	if err != nil {
		return err
	}
	var body orderChangeBody
	if err := h.decode(w, r, &body, "id", "number"); err != nil {
		return err
	}
	changes := order.Changes{Status: body.Status, CustomerEmail: body.CustomerEmail}
	for _, d := range body.Details {
		changes.Details = append(changes.Details, order.DetailChange{ID: d.ID, Status: d.Status})
	}
	if _, err := h.app.ChangeOrder(r.Context(), ref, changes, apiUser(r.Context())); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}
