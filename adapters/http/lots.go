package http

import (
	"net/http"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type lotJSON struct {
	ID              int64             `json:"id"`
	ArticleDetailID int64             `json:"articleDetailId"`
	Number          string            `json:"number"`
	BestBefore      *string           `json:"bestBefore"`
	Expired         bool              `json:"expired"`
	Stock           int               `json:"stock"`
	ReservedStock   int               `json:"reservedStock"`
	Locations       []lotLocationJSON `json:"locations"`
}

type lotLocationJSON struct {
	WarehouseID     int64  `json:"warehouseId"`
	BinLocationID   int64  `json:"binLocationId"`
	BinLocationCode string `json:"binLocationCode"`
	Stock           int    `json:"stock"`
	ReservedStock   int    `json:"reservedStock"`
}

// mappingLotJSON is what one lot holds on a mapping.
type mappingLotJSON struct {
	Number        string  `json:"number"`
	BestBefore    *string `json:"bestBefore"`
	Stock         int     `json:"stock"`
	ReservedStock int     `json:"reservedStock"`
}

// formatDate writes a best-before date, YYYY-MM-DD, or null.
func formatDate(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(stock.DateLayout)
	return &s
}

func toMappingLotsJSON(lots []ports.MappingLot) []mappingLotJSON {
	out := make([]mappingLotJSON, len(lots))
	for i, l := range lots {
		out[i] = mappingLotJSON{Number: l.Number, BestBefore: formatDate(l.BestBefore), Stock: l.Stock, ReservedStock: l.ReservedStock}
	}
	return out
}

func (h *Handler) lotRoutes() {
	h.api("GET /api/lots", h.listLots)
	h.api("GET /api/lots/{id}", h.getLot)
}

func toLotJSON(l application.LotRead) lotJSON {
	out := lotJSON{ID: l.ID, ArticleDetailID: l.Lot.ArticleDetailID, Number: l.Lot.Number, BestBefore: formatDate(l.Lot.BestBefore),
		Expired: l.Expired, Stock: l.Stock, ReservedStock: l.ReservedStock, Locations: make([]lotLocationJSON, len(l.Locations))}
	for i, at := range l.Locations {
		out.Locations[i] = lotLocationJSON{WarehouseID: at.WarehouseID, BinLocationID: at.BinLocationID,
			BinLocationCode: at.BinLocationCode, Stock: at.Stock, ReservedStock: at.ReservedStock}
	}
	return out
}

func (h *Handler) listLots(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.LotFields, h.app.Lots, toLotJSON)
}

func (h *Handler) getLot(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "lot")
	if err != nil {
		return err
	}
	l, err := h.app.Lot(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[lotJSON]{Success: true, Data: toLotJSON(l)})
	return nil
}
