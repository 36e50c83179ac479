package http

import (
	"fmt"
	"net/http"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/wave"
	"github.com/shopstock/inventory/ports"
)

type waveJSON struct {
	ID          int64             `json:"id"`
	WarehouseID int64             `json:"warehouseId"`
	CreatedAt   string            `json:"createdAt"`
	User        string            `json:"user"`
	Tasks       []waveTaskJSON    `json:"tasks"`
	Skipped     []waveSkippedJSON `json:"skipped"`
	Short       []waveShortJSON   `json:"short"`
	Progress    waveProgressJSON  `json:"progress"`
}

type waveTaskJSON struct {
	ID                  int64               `json:"id"`
	BinLocationID       int64               `json:"binLocationId"`
	BinLocationCode     string              `json:"binLocationCode"`
	ArticleDetailID     int64               `json:"articleDetailId"`
	ArticleDetailNumber string              `json:"articleDetailNumber"`
	EAN                 string              `json:"ean"`
	LotNumber           *string             `json:"lotNumber"`
	Quantity            int                 `json:"quantity"`
	Picked              int                 `json:"picked"`
	Status              string              `json:"status"`
	Orders              []waveTaskOrderJSON `json:"orders"`
}

type waveTaskOrderJSON struct {
	OrderID       int64 `json:"orderId"`
	OrderDetailID int64 `json:"orderDetailId"`
	Quantity      int   `json:"quantity"`
}

type waveSkippedJSON struct {
	OrderID    int64               `json:"orderId"`
	Shortfalls []waveShortfallJSON `json:"shortfalls"`
}

// waveShortfallJSON is one reason an order was skipped; orderDetailId is null
// when it concerns the order as a whole.
type waveShortfallJSON struct {
	OrderDetailID *int64 `json:"orderDetailId"`
	Message       string `json:"message"`
}

type waveShortJSON struct {
	OrderID       int64 `json:"orderId"`
	OrderDetailID int64 `json:"orderDetailId"`
	Quantity      int   `json:"quantity"`
}

type waveProgressJSON struct {
	Tasks  int `json:"tasks"`
	Picked int `json:"picked"`
	Short  int `json:"short"`
}

type waveCreatedJSON struct {
	ID       int64             `json:"id"`
	Location string            `json:"location"`
	Tasks    []waveTaskJSON    `json:"tasks"`
	Skipped  []waveSkippedJSON `json:"skipped"`
}

type waveShipmentJSON struct {
	Shipped    []int64              `json:"shipped"`
	NotShipped []waveNotShippedJSON `json:"notShipped"`
}

type waveNotShippedJSON struct {
	OrderID int64  `json:"orderId"`
	Reason  string `json:"reason"`
}

type waveBody struct {
	Warehouse *warehouseRefBody `json:"warehouse" validate:"required"`
	OrderIDs  []int64           `json:"orderIds"`
	Limit     *int64            `json:"limit"`
}

type waveConfirmBody struct {
	BinLocationCode string `json:"binLocationCode" validate:"required"`
	Scan            string `json:"scan"`
	Quantity        *int64 `json:"quantity"`
	Short           bool   `json:"short"`
}

func (h *Handler) waveRoutes() {
	h.api("POST /api/pickingWaves", h.createWave)
	h.api("GET /api/pickingWaves", h.listWaves)
	h.api("GET /api/pickingWaves/{id}", h.getWave)
	h.api("POST /api/pickingWaves/{id}/tasks/{taskId}/confirm", h.confirmWaveTask)
	h.api("POST /api/pickingWaves/{id}/ship", h.shipWave)
}

func toWaveTaskJSON(t *wave.Task) waveTaskJSON {
	it := t.Item()
	out := waveTaskJSON{ID: t.ID(), BinLocationID: it.BinLocationID, BinLocationCode: it.BinLocationCode, ArticleDetailID: it.ArticleDetailID,
		ArticleDetailNumber: it.ArticleNumber, EAN: it.EAN, LotNumber: nullableText(it.Lot), Quantity: t.Quantity(), Picked: t.Picked(),
		Status: string(t.Status()), Orders: []waveTaskOrderJSON{}}
	for _, a := range t.Orders() {
		if a.Quantity > 0 {
			out.Orders = append(out.Orders, waveTaskOrderJSON{OrderID: a.OrderID, OrderDetailID: a.OrderDetailID, Quantity: a.Quantity})
		}
	}
	return out
}

func waveTasksJSON(w *wave.Wave) []waveTaskJSON {
	out := []waveTaskJSON{}
	for _, t := range w.Tasks() {
		out = append(out, toWaveTaskJSON(t))
	}
	return out
}

func waveSkippedOf(w *wave.Wave) []waveSkippedJSON {
	out := []waveSkippedJSON{}
	for _, s := range w.Skipped() {
		j := waveSkippedJSON{OrderID: s.OrderID, Shortfalls: []waveShortfallJSON{}}
		for _, f := range s.Shortfalls {
			j.Shortfalls = append(j.Shortfalls, waveShortfallJSON{OrderDetailID: waveOptionalID(f.OrderDetailID), Message: f.Message})
		}
		out = append(out, j)
	}
	return out
}

func waveOptionalID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func toWaveJSON(w *wave.Wave) waveJSON {
	p := w.Progress()
	out := waveJSON{ID: w.ID(), WarehouseID: w.WarehouseID(), CreatedAt: w.CreatedAt().UTC().Format(timeLayout), User: w.User(),
		Tasks: waveTasksJSON(w), Skipped: waveSkippedOf(w), Short: []waveShortJSON{}, Progress: waveProgressJSON{Tasks: p.Tasks, Picked: p.Picked, Short: p.Short}}
	for _, s := range w.Short() {
		out.Short = append(out.Short, waveShortJSON{OrderID: s.OrderID, OrderDetailID: s.OrderDetailID, Quantity: s.Quantity})
	}
	return out
}

func (h *Handler) createWave(w http.ResponseWriter, r *http.Request) error {
	var body waveBody
	if err := h.decode(w, r, &body); err != nil {
		return err
	}
	spec := body.Warehouse.spec()
	req := application.NewWave{Warehouse: &spec,
		OrderIDs: body.OrderIDs, User: apiUser(r.Context())}
	switch {
	case body.Limit != nil && (*body.Limit < 1 || *body.Limit > wave.MaxOrders):
		return waveFieldError("limit", fmt.Sprintf("must be 1..%d", wave.MaxOrders))
	case body.Limit != nil:
		req.Limit = int(*body.Limit)
	case body.OrderIDs == nil:
		req.Limit = wave.MaxOrders
	}
	out, err := h.app.CreateWave(r.Context(), req)
	if err != nil {
		return err
	}
	c := waveCreatedJSON{ID: out.ID(), Location: h.location(r, fmt.Sprintf("/api/pickingWaves/%d", out.ID())),
		Tasks: waveTasksJSON(out), Skipped: waveSkippedOf(out)}
	w.Header().Set("Location", c.Location)
	writeJSON(w, http.StatusCreated, dataBody[waveCreatedJSON]{Success: true, Data: c})
	return nil
}

func (h *Handler) listWaves(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.WaveFields, h.app.Waves, toWaveJSON)
}

func (h *Handler) getWave(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "picking wave")
	if err != nil {
		return err
	}
	out, err := h.app.Wave(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[waveJSON]{Success: true, Data: toWaveJSON(out)})
	return nil
}

func (h *Handler) confirmWaveTask(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "picking wave")
	if err != nil {
		return err
	}
	taskID, err := pathID(r, "taskId", "task")
	if err != nil {
		return err
	}
	var body waveConfirmBody
	if err := h.decode(w, r, &body); err != nil {
		return err
	}
	c := wave.Confirmation{BinLocationCode: body.BinLocationCode, Scan: body.Scan, Short: body.Short}
	if body.Quantity != nil {
		if *body.Quantity < 0 || *body.Quantity > stock.MaxQuantity {
			return waveFieldError("quantity", fmt.Sprintf("must be 0..%d", stock.MaxQuantity))
		}
		q := int(*body.Quantity)
		c.Quantity = &q
	}
	out, err := h.app.ConfirmWaveTask(r.Context(), id, taskID, c)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[waveTaskJSON]{Success: true, Data: toWaveTaskJSON(out.Task)})
	return nil
}

func (h *Handler) shipWave(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "picking wave")
	if err != nil {
		return err
	}
	if err := emptyObject(w, r); err != nil {
		return err
	}
	out, err := h.app.ShipWave(r.Context(), id, apiUser(r.Context()))
	if err != nil {
		return err
	}
	body := waveShipmentJSON{Shipped: append([]int64{}, out.Shipped...), NotShipped: []waveNotShippedJSON{}}
	for _, n := range out.NotShipped {
		body.NotShipped = append(body.NotShipped, waveNotShippedJSON{OrderID: n.OrderID, Reason: n.Reason})
	}
	writeJSON(w, http.StatusOK, dataBody[waveShipmentJSON]{Success: true, Data: body})
	return nil
}

func waveFieldError(property, message string) error {
	return errs.InvalidFields(errs.FieldError{Property: property, Message: message})
}
