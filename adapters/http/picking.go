package http

import (
	"net/http"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
)

type pickingListJSON struct {
	OrderID int64      `json:"orderId"`
	Picks   []pickJSON `json:"picks"`
}

// pickJSON is one pick, exactly these fields.
type pickJSON struct {
	OrderDetailID   int64  `json:"orderDetailId"`
	ArticleDetailID int64  `json:"articleDetailId"`
	WarehouseID     int64  `json:"warehouseId"`
	BinLocationID   int64  `json:"binLocationId"`
	BinLocationCode string `json:"binLocationCode"`
	Quantity        int    `json:"quantity"`
	// LotNumber is null for a product that is not lot-tracked.
	LotNumber *string `json:"lotNumber"`
}

type pickingListBody struct {
	Warehouse *warehouseRefBody `json:"warehouse"`
}

func (h *Handler) pickingRoutes() {
	h.api("POST /api/orders/{id}/pickingList", h.reservePickingList)
	h.api("GET /api/orders/{id}/pickingList", h.getPickingList)
	h.api("DELETE /api/orders/{id}/pickingList", h.releasePickingList)
}

func writePickingList(w http.ResponseWriter, p application.PickingList) {
	out := pickingListJSON{OrderID: p.OrderID, Picks: make([]pickJSON, len(p.Picks))}
	for i, pk := range p.Picks {
		out.Picks[i] = pickJSON{OrderDetailID: pk.OrderDetailID, ArticleDetailID: pk.ArticleDetailID, WarehouseID: pk.WarehouseID,
			BinLocationID: pk.BinLocationID, BinLocationCode: pk.BinLocationCode, Quantity: pk.Quantity, LotNumber: nullableText(pk.LotNumber)}
	}
	writeJSON(w, http.StatusOK, dataBody[pickingListJSON]{Success: true, Data: out})
}

func (h *Handler) reservePickingList(w http.ResponseWriter, r *http.Request) error {
	ref, err := orderRef(r)
	if err != nil {
		return err
	}
	var body pickingListBody
	if _, err := optionalBody(w, r, &body); err != nil {
		return err
	}
	var at *stock.WarehouseSpec
	if body.Warehouse != nil {
		at = &stock.WarehouseSpec{ID: body.Warehouse.ID, Code: body.Warehouse.Code}
	}
	p, err := h.app.ReservePickingList(r.Context(), ref, at)
	if err != nil {
		return namedWarehouse(err)
	}
	writePickingList(w, p)
	return nil
}

func (h *Handler) getPickingList(w http.ResponseWriter, r *http.Request) error {
	ref, err := orderRef(r)
	if err != nil {
		return err
	}
	p, err := h.app.PickingListOf(r.Context(), ref)
	if err != nil {
		return err
	}
	writePickingList(w, p)
	return nil
}

func (h *Handler) releasePickingList(w http.ResponseWriter, r *http.Request) error {
	ref, err := orderRef(r)
	if err != nil {
		return err
	}
	p, err := h.app.ReleasePickingList(r.Context(), ref)
	if err != nil {
		return err
	}
	writePickingList(w, p)
	return nil
}

// nullableText is s, or null when it is empty.
func nullableText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
