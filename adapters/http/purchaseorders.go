package http

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type purchaseOrderJSON struct {
	ID          int64                   `json:"id"`
	Number      string                  `json:"number"`
	Supplier    string                  `json:"supplier"`
	WarehouseID int64                   `json:"warehouseId"`
	Status      string                  `json:"status"`
	ExpectedAt  *string                 `json:"expectedAt"`
	CreatedAt   string                  `json:"createdAt"`
	Lines       []purchaseOrderLineJSON `json:"lines"`
}

type purchaseOrderLineJSON struct {
	ID              int64 `json:"id"`
	ArticleDetailID int64 `json:"articleDetailId"`
	Quantity        int   `json:"quantity"`
	Received        int   `json:"received"`
}

func toPurchaseOrderJSON(o *purchase.Order) purchaseOrderJSON {
	out := purchaseOrderJSON{ID: o.ID(), Number: o.Number(), Supplier: o.Supplier(), WarehouseID: o.WarehouseID(),
		Status: string(o.Status()), CreatedAt: o.CreatedAt().UTC().Format(timeLayout)}
	if d := o.ExpectedAt(); d != "" {
		out.ExpectedAt = &d
	}
	lines := o.Lines()
	out.Lines = make([]purchaseOrderLineJSON, len(lines))
	for i, l := range lines {
		out.Lines[i] = purchaseOrderLineJSON{ID: l.ID(), ArticleDetailID: l.ArticleDetailID(), Quantity: l.Quantity(), Received: l.Received()}
	}
	return out
}

type receiptJSON struct {
	ID              int64             `json:"id"`
	PurchaseOrderID int64             `json:"purchaseOrderId"`
	CreatedAt       string            `json:"createdAt"`
	User            string            `json:"user"`
	Lines           []receiptLineJSON `json:"lines"`
}

type receiptLineJSON struct {
	LineID          int64 `json:"lineId"`
	ArticleDetailID int64 `json:"articleDetailId"`
	Quantity        int   `json:"quantity"`
	WarehouseID     int64 `json:"warehouseId"`
	BinLocationID   int64 `json:"binLocationId"`
	// LotNumber is null for a product that is not lot-tracked.
	LotNumber *string `json:"lotNumber"`
}

func toReceiptJSON(r *purchase.Receipt) receiptJSON {
	out := receiptJSON{ID: r.ID, PurchaseOrderID: r.PurchaseOrderID, CreatedAt: r.CreatedAt.UTC().Format(timeLayout), User: r.User,
		Lines: make([]receiptLineJSON, len(r.Lines))}
	for i, l := range r.Lines {
		out.Lines[i] = receiptLineJSON{LineID: l.LineID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity,
			WarehouseID: l.WarehouseID, BinLocationID: l.BinLocationID, LotNumber: nullableText(l.LotNumber)}
	}
	return out
}

type purchaseOrderCreateBody struct {
	ID         *int64                        `json:"id" validate:"omitempty,id"`
	Number     string                        `json:"number" validate:"required"`
	Supplier   string                        `json:"supplier"`
	Warehouse  *warehouseRefBody             `json:"warehouse" validate:"required"`
	ExpectedAt *string                       `json:"expectedAt"`
	Lines      []purchaseOrderLineCreateBody `json:"lines" validate:"required,dive"`
}

type purchaseOrderLineCreateBody struct {
	ID              *int64 `json:"id" validate:"omitempty,id"`
	ArticleDetailID int64  `json:"articleDetailId" validate:"id"`
	Quantity        int    `json:"quantity"`
}

type purchaseOrderChangeBody struct {
	Status *string `json:"status"`
	// ExpectedAt is raw so that null (no date any more) and absent (the
	// date stays) differ.
	ExpectedAt jsontext.Value `json:"expectedAt"`
	Supplier   *string        `json:"supplier"`
}

type receiptBody struct {
	Lines []receiptLineBody `json:"lines" validate:"required"`
}

type receiptLineBody struct {
	LineID      int64          `json:"lineId"`
	Quantity    int64          `json:"quantity"`
	BinLocation jsontext.Value `json:"binLocation"`
	Lot         jsontext.Value `json:"lot"`
}

func (h *Handler) purchaseOrderRoutes() {
	h.api("GET /api/purchaseOrders", h.listPurchaseOrders)
	h.api("POST /api/purchaseOrders", h.createPurchaseOrder)
	h.api("GET /api/purchaseOrders/{id}", h.getPurchaseOrder)
	h.api("PUT /api/purchaseOrders/{id}", h.changePurchaseOrder)
	h.api("DELETE /api/purchaseOrders/{id}", h.deletePurchaseOrder)
	h.api("POST /api/purchaseOrders/{id}/receipts", h.receivePurchaseOrder)
	h.api("GET /api/purchaseOrders/{id}/receipts", h.listReceipts)
	h.api("GET /api/purchaseOrders/{id}/receipts/{receiptId}", h.getReceipt)
}

func (h *Handler) listPurchaseOrders(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.PurchaseOrderFields, h.app.PurchaseOrders, toPurchaseOrderJSON)
}

func (h *Handler) createPurchaseOrder(w http.ResponseWriter, r *http.Request) error {
	var body purchaseOrderCreateBody
	if err := h.decode(w, r, &body, "status", "createdAt", "warehouseId"); err != nil {
		return err
	}
	req := application.PurchaseOrderRequest{
		NewOrder: purchase.NewOrder{ID: valueOrZero(body.ID), Number: body.Number, Supplier: body.Supplier, ExpectedAt: body.ExpectedAt,
			Lines: make([]purchase.NewLine, len(body.Lines))},
		Warehouse: stock.WarehouseSpec{ID: body.Warehouse.ID, Code: body.Warehouse.Code},
	}
	for i, l := range body.Lines {
		req.Lines[i] = purchase.NewLine{ID: valueOrZero(l.ID), ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity}
	}
	id, err := h.app.CreatePurchaseOrder(r.Context(), req)
	if err != nil {
		return err
	}
	h.writeCreated(w, r, "/api/purchaseOrders", id, false)
	return nil
}

func (h *Handler) getPurchaseOrder(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "purchase order")
	if err != nil {
		return err
	}
	o, err := h.app.PurchaseOrder(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[purchaseOrderJSON]{Success: true, Data: toPurchaseOrderJSON(o)})
	return nil
}

func (h *Handler) changePurchaseOrder(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "purchase order")
	if err != nil {
		return err
	}
	var body purchaseOrderChangeBody
	if err := h.decode(w, r, &body, "id", "number", "warehouse", "warehouseId", "createdAt", "lines"); err != nil {
		return err
	}
	c := purchase.Change{Status: body.Status, Supplier: body.Supplier}
	if body.ExpectedAt != nil {
		var date *string
		if err := json.Unmarshal(body.ExpectedAt, &date); err != nil {
			return errs.InvalidFields(errs.FieldError{Property: "expectedAt", Message: "must be a date written YYYY-MM-DD, or null"})
		}
		c.ExpectedAt = new(string)
		if date != nil {
			if *date == "" {
				return errs.InvalidFields(errs.FieldError{Property: "expectedAt", Message: "must be a date written YYYY-MM-DD, or null"})
			}
			*c.ExpectedAt = *date
		}
	}
	if err := h.app.ChangePurchaseOrder(r.Context(), id, c); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) deletePurchaseOrder(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "purchase order")
	if err != nil {
		return err
	}
	if err := h.app.DeletePurchaseOrder(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

// receivePurchaseOrder books a goods receipt. An Idempotency-Key header
// makes a retry safe, by the rules of the batches.
func (h *Handler) receivePurchaseOrder(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "purchase order")
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
	var body receiptBody
	if err := decodeStrict(raw, &body); err != nil {
		return err
	}
	if err := h.validate(body); err != nil {
		return err
	}
	if len(body.Lines) > purchase.MaxLines {
		return errs.InvalidFields(errs.FieldError{Property: "lines", Message: fmt.Sprintf("must contain at most %d lines, got %d", purchase.MaxLines, len(body.Lines))})
	}
	lines := make([]purchase.ReceiptLine, len(body.Lines))
	for i, l := range body.Lines {
		q, err := stock.ParseQuantity(fmt.Sprintf("lines[%d].quantity", i), l.Quantity)
		if err != nil {
			return err
		}
		lot, err := lineLot(l.Lot, fmt.Sprintf("lines[%d]", i))
		if err != nil {
			return named(err)
		}
		lines[i] = purchase.ReceiptLine{LineID: l.LineID, Quantity: q, Lot: lot}
		if l.BinLocation != nil && !bytes.Equal(bytes.TrimSpace(l.BinLocation), []byte("null")) {
			spec, err := locationSpec(jsonFields{{name: "binLocation", value: l.BinLocation}}, fmt.Sprintf("lines[%d].", i))
			if err != nil {
				return named(errs.Invalidf("%v", err).On(fmt.Sprintf("lines[%d].binLocation", i)))
			}
			lines[i].At = &spec
		}
	}
	keyed(&meta, r, raw)
	out, err := h.app.ReceivePurchaseOrder(r.Context(), meta, id, lines, func(receiptID int64) ([]byte, error) {
		c := created{ID: receiptID, Location: h.location(r, fmt.Sprintf("/api/purchaseOrders/%d/receipts/%d", id, receiptID))}
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

func (h *Handler) listReceipts(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "purchase order")
	if err != nil {
		return err
	}
	return writeList(w, r, ports.ReceiptFields, func(ctx context.Context, q ports.ListQuery) (ports.Page[*purchase.Receipt], error) {
		return h.app.PurchaseReceipts(ctx, id, q)
	}, toReceiptJSON)
}

func (h *Handler) getReceipt(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "purchase order")
	if err != nil {
		return err
	}
	receiptID, err := pathID(r, "receiptId", "receipt")
	if err != nil {
		return err
	}
	rec, err := h.app.PurchaseReceipt(r.Context(), id, receiptID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[receiptJSON]{Success: true, Data: toReceiptJSON(rec)})
	return nil
}
