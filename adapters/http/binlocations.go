package http

import (
	"net/http"
	"time"

	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// timeLayout is the interface's timestamp: no colon in the offset.
const timeLayout = "2006-01-02T15:04:05-0700"

func formatTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(timeLayout)
	return &s
}

type binLocationJSON struct {
	ID          int64  `json:"id"`
	WarehouseID int64  `json:"warehouseId"`
	Code        string `json:"code"`
}

type binLocationDetailJSON struct {
	binLocationJSON
	Mappings []mappingJSON `json:"articleDetailBinLocationMappings"`
}

type mappingJSON struct {
	ID              int64   `json:"id"`
	BinLocationID   int64   `json:"binLocationId"`
	ArticleDetailID int64   `json:"articleDetailId"`
	Stock           int     `json:"stock"`
	DefaultMapping  bool    `json:"defaultMapping"`
	ReservedStock   int     `json:"reservedStock"`
	LastStockTake   *string `json:"lastStockTake"`
	// Lots are what each lot holds here, [] for a product that is not
	// lot-tracked.
	Lots []mappingLotJSON `json:"lots"`
}

type binLocationCreateBody struct {
	WarehouseID int64  `json:"warehouseId" validate:"required,id"`
	Code        string `json:"code" validate:"required"`
}

type binLocationUpdateBody struct {
	WarehouseID *int64  `json:"warehouseId" validate:"omitempty,id"`
	Code        *string `json:"code"`
}

func (h *Handler) binLocationRoutes() {
	h.api("GET /api/binLocations", h.listBinLocations)
	h.api("POST /api/binLocations", h.createBinLocation)
	h.api("GET /api/binLocations/{id}", h.getBinLocation)
	h.api("PUT /api/binLocations/{id}", h.updateBinLocation)
	h.api("DELETE /api/binLocations/{id}", h.deleteBinLocation)
}

func (h *Handler) listBinLocations(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.BinLocationFields, h.app.BinLocations, toBinLocationJSON)
}

func toBinLocationJSON(b *warehouse.BinLocation) binLocationJSON {
	return binLocationJSON{ID: b.ID(), WarehouseID: b.WarehouseID(), Code: b.Code()}
}

func (h *Handler) getBinLocation(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	v, err := h.app.BinLocation(r.Context(), id)
	if err != nil {
		return err
	}
	b := v.BinLocation
	out := binLocationDetailJSON{
		binLocationJSON: toBinLocationJSON(b),
		Mappings:        make([]mappingJSON, len(v.Mappings)),
	}
	for i, m := range v.Mappings {
		out.Mappings[i] = mappingJSON{
			ID: m.ID, BinLocationID: m.BinLocationID, ArticleDetailID: m.ArticleDetailID, Stock: m.Stock,
			DefaultMapping: m.DefaultMapping, ReservedStock: m.ReservedStock, LastStockTake: formatTime(m.LastStockTake),
			Lots: toMappingLotsJSON(m.Lots),
		}
	}
	writeJSON(w, http.StatusOK, dataBody[binLocationDetailJSON]{Success: true, Data: out})
	return nil
}

func (h *Handler) createBinLocation(w http.ResponseWriter, r *http.Request) error {
	var body binLocationCreateBody
	if err := h.decode(w, r, &body, "id"); err != nil {
		return err
	}
	id, err := h.app.CreateBinLocation(r.Context(), body.WarehouseID, body.Code)
	if err != nil {
		return err
	}
	h.writeCreated(w, r, "/api/binLocations", id, false)
	return nil
}

func (h *Handler) updateBinLocation(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	var body binLocationUpdateBody
	if err := h.decode(w, r, &body, "id", "articleDetailBinLocationMappings"); err != nil {
		return err
	}
	if err := h.app.UpdateBinLocation(r.Context(), id, body.Code, body.WarehouseID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) deleteBinLocation(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	if err := h.app.DeleteBinLocation(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}
