package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

type transferJSON struct {
	ID                     int64              `json:"id"`
	Number                 string             `json:"number"`
	SourceWarehouseID      int64              `json:"sourceWarehouseId"`
	DestinationWarehouseID int64              `json:"destinationWarehouseId"`
	Status                 string             `json:"status"`
	CreatedAt              string             `json:"createdAt"`
	Lines                  []transferLineJSON `json:"lines"`
}

type transferLineJSON struct {
	ID              int64 `json:"id"`
	ArticleDetailID int64 `json:"articleDetailId"`
	// LotNumber is the lot the line names, null when it names none.
	LotNumber *string `json:"lotNumber"`
	Quantity  int     `json:"quantity"`
	Shipped   int     `json:"shipped"`
	Received  int     `json:"received"`
	Returned  int     `json:"returned"`
	Lost      int     `json:"lost"`
	InTransit int     `json:"inTransit"`
}

func toTransferJSON(t *transfer.Transfer) transferJSON {
	out := transferJSON{ID: t.ID(), Number: t.Number(), SourceWarehouseID: t.SourceWarehouseID(),
		DestinationWarehouseID: t.DestinationWarehouseID(), Status: string(t.Status()), CreatedAt: t.CreatedAt().UTC().Format(timeLayout)}
	lines := t.Lines()
	out.Lines = make([]transferLineJSON, len(lines))
	for i, l := range lines {
		out.Lines[i] = transferLineJSON{ID: l.ID(), ArticleDetailID: l.ArticleDetailID(), LotNumber: nullableText(l.Lot()),
			Quantity: l.Quantity(), Shipped: l.Shipped(), Received: l.Received(), Returned: l.Returned(), Lost: l.Lost(),
			InTransit: l.InTransit()}
	}
	return out
}

type transferMovementJSON struct {
	ID         int64                      `json:"id"`
	TransferID int64                      `json:"transferId"`
	CreatedAt  string                     `json:"createdAt"`
	User       string                     `json:"user"`
	Lines      []transferMovementLineJSON `json:"lines"`
}

type transferMovementLineJSON struct {
	LineID          int64   `json:"lineId"`
	ArticleDetailID int64   `json:"articleDetailId"`
	Quantity        int     `json:"quantity"`
	WarehouseID     int64   `json:"warehouseId"`
	BinLocationID   int64   `json:"binLocationId"`
	LotNumber       *string `json:"lotNumber"`
}

func toTransferMovementJSON(m *transfer.Movement) transferMovementJSON {
	out := transferMovementJSON{ID: m.ID, TransferID: m.TransferID, CreatedAt: m.CreatedAt.UTC().Format(timeLayout), User: m.User,
		Lines: make([]transferMovementLineJSON, len(m.Lines))}
	for i, l := range m.Lines {
		out.Lines[i] = transferMovementLineJSON{LineID: l.LineID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity,
			WarehouseID: l.WarehouseID, BinLocationID: l.BinLocationID, LotNumber: nullableText(l.LotNumber)}
	}
	return out
}

type transferCreateBody struct {
	ID          *int64                   `json:"id" validate:"omitempty,id"`
	Number      string                   `json:"number" validate:"required"`
	Source      *warehouseRefBody        `json:"source" validate:"required"`
	Destination *warehouseRefBody        `json:"destination" validate:"required"`
	Lines       []transferLineCreateBody `json:"lines" validate:"required,dive"`
}

type transferLineCreateBody struct {
	ID              *int64        `json:"id" validate:"omitempty,id"`
	ArticleDetailID int64         `json:"articleDetailId" validate:"id"`
	Quantity        int64         `json:"quantity"`
	Lot             *lotNumberRef `json:"lot"`
}

// lotNumberRef names a lot by its number alone: a transfer moves lots that
// exist, whose best-before date is theirs.
type lotNumberRef struct {
	Number *string `json:"number"`
}

type transferChangeBody struct {
	Status    *string `json:"status"`
	InTransit *string `json:"inTransit"`
}

type transferShipmentBody struct {
	Lines []transferMovementLineBody `json:"lines"`
}

type transferReceiptBody struct {
	Lines []transferMovementLineBody `json:"lines" validate:"required"`
}

type transferMovementLineBody struct {
	LineID      int64          `json:"lineId"`
	Quantity    int64          `json:"quantity"`
	BinLocation jsontext.Value `json:"binLocation"`
	Lot         *lotNumberRef  `json:"lot"`
}

func (h *Handler) transferRoutes() {
	h.api("GET /api/transfers", h.listTransfers)
	h.api("POST /api/transfers", h.createTransfer)
	h.api("GET /api/transfers/{id}", h.getTransfer)
	h.api("PUT /api/transfers/{id}", h.changeTransfer)
	h.api("POST /api/transfers/{id}/shipments", h.shipTransfer)
	h.api("GET /api/transfers/{id}/shipments/{shipmentId}", h.getTransferShipment)
	h.api("POST /api/transfers/{id}/receipts", h.receiveTransfer)
	h.api("GET /api/transfers/{id}/receipts/{receiptId}", h.getTransferReceipt)
}

func (h *Handler) listTransfers(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.TransferFields, h.app.Transfers, toTransferJSON)
}

func (h *Handler) createTransfer(w http.ResponseWriter, r *http.Request) error {
	var body transferCreateBody
	if err := h.decode(w, r, &body, "status", "createdAt", "sourceWarehouseId", "destinationWarehouseId"); err != nil {
		return err
	}
	req := application.TransferRequest{
		NewTransfer: transfer.NewTransfer{ID: valueOrZero(body.ID), Number: body.Number, Lines: make([]transfer.NewLine, len(body.Lines))},
		Source:      body.Source.spec(),
		Destination: body.Destination.spec(),
	}
	for i, l := range body.Lines {
		q, err := stock.ParseQuantity(fmt.Sprintf("lines[%d].quantity", i), l.Quantity)
		if err != nil {
			return err
		}
		lot, err := lotNumber(l.Lot, fmt.Sprintf("lines[%d].lot", i))
		if err != nil {
			return err
		}
		req.Lines[i] = transfer.NewLine{ID: valueOrZero(l.ID), ArticleDetailID: l.ArticleDetailID, Quantity: q}
		if lot != nil {
			req.Lines[i].Lot = lot.Number
		}
	}
	id, err := h.app.CreateTransfer(r.Context(), req)
	if err != nil {
		return err
	}
	h.writeCreated(w, r, "/api/transfers", id, false)
	return nil
}

// lotNumber reads a lot named by its number; the text rules are the
// domain's.
func lotNumber(ref *lotNumberRef, property string) (*stock.LotSpec, error) {
	if ref == nil {
		return nil, nil
	}
	if ref.Number == nil {
		return nil, errs.InvalidFields(errs.FieldError{Property: property + ".number", Message: "is required"})
	}
	spec := &stock.LotSpec{Number: *ref.Number}
	if err := spec.Validate(property); err != nil {
		return nil, err
	}
	return spec, nil
}

func (h *Handler) getTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "transfer")
	if err != nil {
		return err
	}
	t, err := h.app.Transfer(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[transferJSON]{Success: true, Data: toTransferJSON(t)})
	return nil
}

func (h *Handler) changeTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "transfer")
	if err != nil {
		return err
	}
	var body transferChangeBody
	if err := h.decode(w, r, &body, "id", "number", "source", "destination", "sourceWarehouseId", "destinationWarehouseId",
		"createdAt", "lines"); err != nil {
		return err
	}
	c := transfer.Change{Status: body.Status}
	if body.InTransit != nil {
		if *body.InTransit == "" {
			return errs.InvalidFields(errs.FieldError{Property: "inTransit", Message: fmt.Sprintf("must be %q or %q", transfer.ReturnInTransit, transfer.LoseInTransit)})
		}
		c.InTransit = *body.InTransit
	}
	if err := h.app.ChangeTransfer(r.Context(), id, c); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

// movementLines reads the lines of a shipment or receipt: each quantity
// within the limits, its bin and lot well formed.
func movementLines(body []transferMovementLineBody) ([]transfer.ReceiptLine, error) {
	if len(body) > transfer.MaxLines {
		return nil, errs.InvalidFields(errs.FieldError{Property: "lines", Message: fmt.Sprintf("must contain at most %d lines, got %d", transfer.MaxLines, len(body))})
	}
	lines := make([]transfer.ReceiptLine, len(body))
	for i, l := range body {
		q, err := stock.ParseQuantity(fmt.Sprintf("lines[%d].quantity", i), l.Quantity)
		if err != nil {
			return nil, err
		}
		lot, err := lotNumber(l.Lot, fmt.Sprintf("lines[%d].lot", i))
		if err != nil {
			return nil, err
		}
		lines[i] = transfer.ReceiptLine{LineID: l.LineID, Quantity: q, Lot: lot}
		if l.BinLocation != nil && !bytes.Equal(bytes.TrimSpace(l.BinLocation), []byte("null")) {
			spec, err := locationSpec(jsonFields{{name: "binLocation", value: l.BinLocation}}, fmt.Sprintf("lines[%d].", i))
			if err != nil {
				return nil, errs.Invalidf("%v", err).On(fmt.Sprintf("lines[%d].binLocation", i))
			}
			lines[i].At = &spec
		}
	}
	return lines, nil
}

// shipTransfer sends pieces of a transfer on the road; without lines (or
// without a body) everything not shipped yet. An Idempotency-Key header
// makes a retry safe, by the rules of the batches.
func (h *Handler) shipTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "transfer")
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
	var body transferShipmentBody
	if raw != nil {
		if err := decodeStrict(raw, &body); err != nil {
			return err
		}
	}
	var lines []transfer.ShipmentLine
	if body.Lines != nil {
		for i, l := range body.Lines {
			if l.Lot != nil {
				return errs.InvalidFields(errs.FieldError{Property: fmt.Sprintf("lines[%d].lot", i),
					Message: "a shipment takes the line's own lot: leave out lot"})
			}
		}
		read, err := movementLines(body.Lines)
		if err != nil {
			return err
		}
		lines = make([]transfer.ShipmentLine, len(read))
		for i, l := range read {
			lines[i] = transfer.ShipmentLine{LineID: l.LineID, Quantity: l.Quantity, From: l.At}
		}
	}
	keyed(&meta, r, raw)
	return h.movement(w, r, func(render application.RenderCreated) (application.BatchOutcome, error) {
		return h.app.ShipTransfer(r.Context(), meta, id, lines, render)
	})
}

// receiveTransfer books pieces of a transfer that arrived. An
// Idempotency-Key header makes a retry safe, by the rules of the batches.
func (h *Handler) receiveTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "transfer")
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
	var body transferReceiptBody
	if err := decodeStrict(raw, &body); err != nil {
		return err
	}
	if err := h.validate(body); err != nil {
		return err
	}
	lines, err := movementLines(body.Lines)
	if err != nil {
		return err
	}
	keyed(&meta, r, raw)
	return h.movement(w, r, func(render application.RenderCreated) (application.BatchOutcome, error) {
		return h.app.ReceiveTransfer(r.Context(), meta, id, lines, render)
	})
}

// movement runs a shipment or receipt and answers 201 with where it can be
// read, the stored answer when the key replays one.
func (h *Handler) movement(w http.ResponseWriter, r *http.Request, run func(application.RenderCreated) (application.BatchOutcome, error)) error {
	out, err := run(func(movementID int64) ([]byte, error) {
		c := created{ID: movementID, Location: h.location(r, fmt.Sprintf("%s/%d", r.URL.Path, movementID))}
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

func (h *Handler) getTransferShipment(w http.ResponseWriter, r *http.Request) error {
	return h.getTransferMovement(w, r, ports.TransferShipment, "shipmentId")
}

func (h *Handler) getTransferReceipt(w http.ResponseWriter, r *http.Request) error {
	return h.getTransferMovement(w, r, ports.TransferReceipt, "receiptId")
}

func (h *Handler) getTransferMovement(w http.ResponseWriter, r *http.Request, kind ports.TransferMovementKind, param string) error {
	id, err := pathID(r, "id", "transfer")
	if err != nil {
		return err
	}
	movementID, err := pathID(r, param, string(kind))
	if err != nil {
		return err
	}
	m, err := h.app.TransferMovement(r.Context(), kind, id, movementID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[transferMovementJSON]{Success: true, Data: toTransferMovementJSON(m)})
	return nil
}
