package application

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

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

// jsonAppender is a payload that spells its own JSON, byte for byte what
// encoding/json makes of it (event_data_test.go holds them to that): a
// batch records a hundred stock.changed at a time, and reflection would
// be a tenth of what recording them costs.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

func newEvent(typ string, data any) ports.NewEvent {
	if a, ok := data.(jsonAppender); ok {
		return ports.NewEvent{Type: typ, Data: a.appendJSON(make([]byte, 0, 512))}
	}
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
		ExpiredStock: v.ExpiredStock, IncomingStock: v.IncomingStock,
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

func (d stockChangedData) appendJSON(b []byte) []byte {
	b = strconv.AppendInt(append(b, `{"id":`...), d.ID, 10)
	b = appendJSONString(append(b, `,"number":`...), d.Number)
	b = appendJSONString(append(b, `,"name":`...), d.Name)
	b = strconv.AppendInt(append(b, `,"reorderPoint":`...), int64(d.ReorderPoint), 10)
	b = appendJSONString(append(b, `,"ean":`...), d.EAN)
	b = strconv.AppendBool(append(b, `,"lotTracked":`...), d.LotTracked)
	b = strconv.AppendInt(append(b, `,"physicalStock":`...), int64(d.PhysicalStock), 10)
	b = strconv.AppendInt(append(b, `,"physicalStockForSale":`...), int64(d.PhysicalStockForSale), 10)
	b = strconv.AppendInt(append(b, `,"reservedStock":`...), int64(d.ReservedStock), 10)
	b = strconv.AppendInt(append(b, `,"availableStock":`...), int64(d.AvailableStock), 10)
	b = strconv.AppendInt(append(b, `,"expiredStock":`...), int64(d.ExpiredStock), 10)
	b = strconv.AppendInt(append(b, `,"incomingStock":`...), int64(d.IncomingStock), 10)
	if d.WarehouseStocks == nil {
		b = append(b, `,"warehouseStocks":null`...)
	} else {
		b = append(b, `,"warehouseStocks":[`...)
		for i, w := range d.WarehouseStocks {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(append(b, `{"warehouseId":`...), w.WarehouseID, 10)
			b = appendJSONString(append(b, `,"warehouseCode":`...), w.WarehouseCode)
			b = strconv.AppendInt(append(b, `,"stock":`...), int64(w.Stock), 10)
			b = strconv.AppendInt(append(b, `,"reservedStock":`...), int64(w.ReservedStock), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendJSONString(append(b, `,"cause":{"type":`...), d.Cause.Type)
	b = append(b, `,"idempotencyKey":`...)
	if d.Cause.IdempotencyKey == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *d.Cause.IdempotencyKey)
	}
	b = append(b, `,"orderId":`...)
	if d.Cause.OrderID == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, *d.Cause.OrderID, 10)
	}
	return append(b, "}}"...)
}

// appendJSONString appends s as encoding/json spells it: printable ASCII
// that needs no escape as it is, anything else through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, _ := json.Marshal(s) // a string always marshals
			return append(b, raw...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
