package http

import (
	"net/http"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/ports"
)

type articleJSON struct {
	ID           int64  `json:"id"`
	Number       string `json:"number"`
	Name         string `json:"name"`
	ReorderPoint int    `json:"reorderPoint"`
	EAN          string `json:"ean"`
	LotTracked   bool   `json:"lotTracked"`
}

type warehouseStockJSON struct {
	WarehouseID   int64  `json:"warehouseId"`
	WarehouseCode string `json:"warehouseCode"`
	Stock         int    `json:"stock"`
	ReservedStock int    `json:"reservedStock"`
}

type articleDetailJSON struct {
	articleJSON
	PhysicalStock        int                  `json:"physicalStock"`
	PhysicalStockForSale int                  `json:"physicalStockForSale"`
	ReservedStock        int                  `json:"reservedStock"`
	AvailableStock       int                  `json:"availableStock"`
	ExpiredStock         int                  `json:"expiredStock"`
	IncomingStock        int                  `json:"incomingStock"`
	InTransitStock       int                  `json:"inTransitStock"`
	WarehouseStocks      []warehouseStockJSON `json:"warehouseStocks"`
}

type articleCreateBody struct {
	ID           *int64 `json:"id" validate:"omitempty,id"` // absent: the database picks one
	Number       string `json:"number" validate:"required"`
	Name         string `json:"name"`
	ReorderPoint int    `json:"reorderPoint"`
	EAN          string `json:"ean"`
	LotTracked   bool   `json:"lotTracked"`
}

type articleUpdateBody struct {
	Number       *string `json:"number"`
	Name         *string `json:"name"`
	ReorderPoint *int    `json:"reorderPoint"`
	EAN          *string `json:"ean"`
	LotTracked   *bool   `json:"lotTracked"`
}

var articleReadOnly = []string{"id", "physicalStock", "physicalStockForSale", "reservedStock", "availableStock", "expiredStock", "incomingStock", "inTransitStock", "warehouseStocks"}

func (h *Handler) articleRoutes() {
	h.api("GET /api/articleDetails", h.listArticles)
	h.api("POST /api/articleDetails", h.createArticle)
	h.api("GET /api/articleDetails/{id}", h.getArticle)
	h.api("PUT /api/articleDetails/{id}", h.updateArticle)
	h.api("DELETE /api/articleDetails/{id}", h.deleteArticle)
	h.api("PUT /api/binLocations/{id}/articleDetails/{articleDetailId}", h.setDefaultMapping)
	h.api("GET /api/stockLedgerEntries", h.listLedger)
}

// listArticles shows every item with the figures the single fetch shows.
func (h *Handler) listArticles(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.ArticleDetailFields, h.app.ArticleDetails, toArticleDetailJSON)
}

func toArticleJSON(a *catalog.ArticleDetail) articleJSON {
	return articleJSON{ID: a.ID(), Number: a.Number(), Name: a.Name(), ReorderPoint: a.ReorderPoint(), EAN: a.EAN().String(), LotTracked: a.LotTracked()}
}

func toArticleDetailJSON(v application.ArticleStock) articleDetailJSON {
	out := articleDetailJSON{
		articleJSON:   toArticleJSON(v.Article),
		PhysicalStock: v.PhysicalStock, PhysicalStockForSale: v.PhysicalStockForSale, ReservedStock: v.ReservedStock,
		AvailableStock: v.AvailableStock, WarehouseStocks: make([]warehouseStockJSON, len(v.Warehouses)),
		ExpiredStock: v.ExpiredStock, IncomingStock: v.IncomingStock, InTransitStock: v.InTransitStock,
	}
	for i, ws := range v.Warehouses {
		out.WarehouseStocks[i] = warehouseStockJSON{WarehouseID: ws.WarehouseID, WarehouseCode: ws.WarehouseCode, Stock: ws.Stock, ReservedStock: ws.ReservedStock}
	}
	return out
}

func (h *Handler) getArticle(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "article detail")
	if err != nil {
		return err
	}
	v, err := h.app.ArticleDetail(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[articleDetailJSON]{Success: true, Data: toArticleDetailJSON(v)})
	return nil
}

func (h *Handler) createArticle(w http.ResponseWriter, r *http.Request) error {
	var body articleCreateBody
	if err := h.decode(w, r, &body, articleReadOnly[1:]...); err != nil {
		return err
	}
	id, err := h.app.CreateArticleDetailWith(r.Context(), application.ArticleDetailInput{
		ID: valueOrZero(body.ID), Number: body.Number, Name: body.Name, ReorderPoint: body.ReorderPoint, EAN: body.EAN,
		LotTracked: body.LotTracked,
	})
	if err != nil {
		return err
	}
	h.writeCreated(w, r, "/api/articleDetails", id, false)
	return nil
}

func (h *Handler) updateArticle(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "article detail")
	if err != nil {
		return err
	}
	var body articleUpdateBody
	if err := h.decode(w, r, &body, articleReadOnly...); err != nil {
		return err
	}
	if err := h.app.UpdateArticleDetailWith(r.Context(), id, application.ArticleDetailChange{
		Number: body.Number, Name: body.Name, ReorderPoint: body.ReorderPoint, EAN: body.EAN, LotTracked: body.LotTracked,
	}); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) deleteArticle(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "article detail")
	if err != nil {
		return err
	}
	if err := h.app.DeleteArticleDetail(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

type defaultMappingBody struct {
	DefaultMapping *bool `json:"defaultMapping" validate:"required"`
}

func (h *Handler) setDefaultMapping(w http.ResponseWriter, r *http.Request) error {
	binID, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	articleID, err := pathID(r, "articleDetailId", "article detail")
	if err != nil {
		return err
	}
	var body defaultMappingBody
	if err := h.decode(w, r, &body); err != nil {
		return err
	}
	if err := h.app.SetDefaultBinLocation(r.Context(), binID, articleID, *body.DefaultMapping); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

type ledgerEntryJSON struct {
	ID              int64     `json:"id"`
	ArticleDetailID int64     `json:"articleDetailId"`
	WarehouseID     int64     `json:"warehouseId"`
	BinLocationID   int64     `json:"binLocationId"`
	Type            string    `json:"type"`
	Quantity        int       `json:"quantity"`
	StockAfter      int       `json:"stockAfter"`
	IdempotencyKey  *string   `json:"idempotencyKey"`
	OperationID     rawOrNull `json:"operationId"`
	OrderID         *int64    `json:"orderId"`
	OrderDetailID   *int64    `json:"orderDetailId"`
	PurchaseOrderID *int64    `json:"purchaseOrderId"`
	CountID         *int64    `json:"countId"`
	LotNumber       *string   `json:"lotNumber"`
	TransferID      *int64    `json:"transferId"`
	User            string    `json:"user"`
	CreatedAt       string    `json:"createdAt"`
}

// rawOrNull writes stored raw JSON, or null when there is none.
type rawOrNull string

func (r rawOrNull) MarshalJSON() ([]byte, error) {
	if r == "" {
		return []byte("null"), nil
	}
	return []byte(r), nil
}

func nonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func (h *Handler) listLedger(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.StockLedgerEntryFields, h.app.StockLedgerEntries, toLedgerEntryJSON)
}

func toLedgerEntryJSON(e ports.LedgerRecord) ledgerEntryJSON {
	return ledgerEntryJSON{
		ID: e.ID, ArticleDetailID: e.ArticleDetailID, WarehouseID: e.WarehouseID, BinLocationID: e.BinLocationID,
		Type: string(e.Type), Quantity: e.Quantity, StockAfter: e.StockAfter,
		IdempotencyKey: nonZero(e.Ref.IdempotencyKey), OperationID: rawOrNull(e.Ref.OperationID),
		OrderID: nonZero(e.Ref.OrderID), OrderDetailID: nonZero(e.Ref.OrderDetailID),
		User: e.Ref.User, CreatedAt: e.CreatedAt.UTC().Format(timeLayout), PurchaseOrderID: nonZero(e.Ref.PurchaseOrderID), CountID: nonZero(e.Ref.CountID),
		LotNumber: nonZero(e.LotNumber), TransferID: nonZero(e.Ref.TransferID),
	}
}
