package application

import (
	"encoding/json"
	"fmt"

	"github.com/shopstock/inventory/ports"
)

// The payloads of the events, as the feed and webhooks carry them.

func nullIfZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func newEvent(typ string, data any) ports.NewEvent {
	raw, err := json.Marshal(data)
	if err != nil {
		panic(fmt.Sprintf("event %s: %v", typ, err)) // plain structs always marshal
	}
	return ports.NewEvent{Type: typ, Data: raw}
}

// ArticleDetailData is an article detail as GET /api/articleDetails/{id}
// shows it; stock.changed carries it.
type ArticleDetailData struct {
	ID                   int64                `json:"id"`
	Number               string               `json:"number"`
	Name                 string               `json:"name"`
	ReorderPoint         int                  `json:"reorderPoint"`
	EAN                  string               `json:"ean"`
	LotTracked           bool                 `json:"lotTracked"`
	PhysicalStock        int                  `json:"physicalStock"`
	PhysicalStockForSale int                  `json:"physicalStockForSale"`
	ReservedStock        int                  `json:"reservedStock"`
	AvailableStock       int                  `json:"availableStock"`
	ExpiredStock         int                  `json:"expiredStock"`
	IncomingStock        int                  `json:"incomingStock"`
	InTransitStock       int                  `json:"inTransitStock"`
	WarehouseStocks      []WarehouseStockData `json:"warehouseStocks"`
}

// WarehouseStockData is a product's stock in one warehouse.
type WarehouseStockData struct {
	WarehouseID   int64  `json:"warehouseId"`
	WarehouseCode string `json:"warehouseCode"`
	Stock         int    `json:"stock"`
	ReservedStock int    `json:"reservedStock"`
}

// ArticleDetailDataOf renders a product with its figures.
func ArticleDetailDataOf(v ArticleStock) ArticleDetailData {
	out := ArticleDetailData{
		ID: v.Article.ID(), Number: v.Article.Number(), Name: v.Article.Name(), ReorderPoint: v.Article.ReorderPoint(),
		EAN: v.Article.EAN().String(), LotTracked: v.Article.LotTracked(),
		PhysicalStock: v.PhysicalStock, PhysicalStockForSale: v.PhysicalStockForSale, ReservedStock: v.ReservedStock,
		AvailableStock: v.AvailableStock, WarehouseStocks: make([]WarehouseStockData, len(v.Warehouses)),
		ExpiredStock: v.ExpiredStock, IncomingStock: v.IncomingStock, InTransitStock: v.InTransitStock,
	}
	for i, ws := range v.Warehouses {
		out.WarehouseStocks[i] = WarehouseStockData{WarehouseID: ws.WarehouseID, WarehouseCode: ws.WarehouseCode, Stock: ws.Stock, ReservedStock: ws.ReservedStock}
	}
	return out
}

type stockChangedData struct {
	ArticleDetailData
	Cause causeData `json:"cause"`
}

type causeData struct {
	Type           string  `json:"type"`
	IdempotencyKey *string `json:"idempotencyKey"`
	OrderID        *int64  `json:"orderId"`
}

type stockLowData struct {
	ArticleDetailID     int64  `json:"articleDetailId"`
	ArticleDetailNumber string `json:"articleDetailNumber"`
	AvailableStock      int    `json:"availableStock"`
	ReorderPoint        int    `json:"reorderPoint"`
}

type orderStatusChangedData struct {
	OrderID        int64  `json:"orderId"`
	Number         string `json:"number"`
	Status         string `json:"status"`
	PreviousStatus string `json:"previousStatus"`
}

type purchaseOrderStatusChangedData struct {
	PurchaseOrderID int64  `json:"purchaseOrderId"`
	Number          string `json:"number"`
	Status          string `json:"status"`
	PreviousStatus  string `json:"previousStatus"`
}

type transferStatusChangedData struct {
	TransferID     int64  `json:"transferId"`
	Number         string `json:"number"`
	Status         string `json:"status"`
	PreviousStatus string `json:"previousStatus"`
}
