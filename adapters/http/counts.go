package http

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type countJSON struct {
	ID          int64          `json:"id"`
	WarehouseID int64          `json:"warehouseId"`
	Status      string         `json:"status"`
	Blind       bool           `json:"blind"`
	LockBins    bool           `json:"lockBins"`
	CreatedAt   string         `json:"createdAt"`
	Bins        []countBinJSON `json:"bins"`
}

type countBinJSON struct {
	BinLocationID   int64           `json:"binLocationId"`
	BinLocationCode string          `json:"binLocationCode"`
	Counted         bool            `json:"counted"`
	Lines           []countLineJSON `json:"lines"`
}

type countLineJSON struct {
	ArticleDetailID int64   `json:"articleDetailId"`
	LotNumber       *string `json:"lotNumber"`
	Expected        *int    `json:"expected"`
	Counted         *int    `json:"counted"`
	MovedSince      *int    `json:"movedSince"`
}

// toCountJSON shows a count; while it is Open and blind, expected and
// movedSince are null for everybody.
func toCountJSON(v application.CountView) countJSON {
	c := v.Count
	out := countJSON{ID: c.ID(), WarehouseID: c.WarehouseID(), Status: string(c.Status()), Blind: c.Blind(), LockBins: c.LockBins(),
		CreatedAt: c.CreatedAt().UTC().Format(timeLayout), Bins: []countBinJSON{}}
	books := c.ShowsBooks()
	for _, b := range c.Bins() {
		bj := countBinJSON{BinLocationID: b.BinLocationID, BinLocationCode: b.Code, Counted: b.Counted, Lines: []countLineJSON{}}
		for _, l := range b.View() {
			lj := countLineJSON{ArticleDetailID: l.ArticleDetailID, LotNumber: nonZero(l.Lot), Counted: l.Counted}
			if books {
				expected := l.Expected
				moved := v.Moved[ports.CountKey{BinLocationID: b.BinLocationID, ArticleDetailID: l.ArticleDetailID, Lot: l.Lot}]
				lj.Expected, lj.MovedSince = &expected, &moved
			}
			bj.Lines = append(bj.Lines, lj)
		}
		out.Bins = append(out.Bins, bj)
	}
	return out
}

type countCreateBody struct {
	Warehouse        *warehouseRefBody `json:"warehouse" validate:"required"`
	BinLocations     []countBinRefBody `json:"binLocations" validate:"omitempty,dive"`
	ArticleDetailIDs []int64           `json:"articleDetailIds" validate:"omitempty,dive,id"`
	Blind            bool              `json:"blind"`
	LockBins         bool              `json:"lockBins"`
}

// countBinRefBody names a bin by id or code; like a warehouse's, an id of 0
// that is sent is out of range rather than absent.
type countBinRefBody struct {
	ID   *int64 `json:"id" validate:"omitempty,id"`
	Code string `json:"code"`
}

type countBinBody struct {
	Lines []countBinLineBody `json:"lines" validate:"required,dive"`
}

type countBinLineBody struct {
	ArticleDetailID int64          `json:"articleDetailId" validate:"id"`
	Lot             jsontext.Value `json:"lot"`
	Quantity        *int64         `json:"quantity" validate:"required"`
}

type countChangeBody struct {
	Status string `json:"status" validate:"required"`
}

type countAppliedJSON struct {
	ID       int64               `json:"id"`
	Released []countReleasedJSON `json:"released"`
}

type countReleasedJSON struct {
	OrderID       int64 `json:"orderId"`
	OrderDetailID int64 `json:"orderDetailId"`
	BinLocationID int64 `json:"binLocationId"`
	Quantity      int   `json:"quantity"`
}

func (h *Handler) countRoutes() {
	h.api("GET /api/counts", h.listCounts)
	h.api("POST /api/counts", h.createCount)
	h.api("GET /api/counts/{id}", h.getCount)
	h.api("PUT /api/counts/{id}", h.changeCount)
	h.api("PUT /api/counts/{id}/bins/{binLocationId}", h.countBin)
	h.api("POST /api/counts/{id}/apply", h.applyCount)
}

func (h *Handler) listCounts(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.CountFields, h.app.Counts, toCountJSON)
}

func (h *Handler) getCount(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return err
	}
	v, err := h.app.Count(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[countJSON]{Success: true, Data: toCountJSON(v)})
	return nil
}

func (h *Handler) createCount(w http.ResponseWriter, r *http.Request) error {
	var body countCreateBody
	if err := h.decode(w, r, &body, "id", "status", "createdAt", "warehouseId", "bins"); err != nil {
		return err
	}
	req := application.CountRequest{
		Warehouse: body.Warehouse.spec(),
		BinsGiven: body.BinLocations != nil, ArticleDetailIDs: body.ArticleDetailIDs, ArticlesGiven: body.ArticleDetailIDs != nil,
		Blind: body.Blind, LockBins: body.LockBins,
	}
	for _, b := range body.BinLocations {
		req.BinLocations = append(req.BinLocations, stock.BinLocationSpec{ID: valueOrZero(b.ID), Code: b.Code})
	}
	id, err := h.app.CreateCount(r.Context(), req)
	if err != nil {
		return err
	}
	h.writeCreated(w, r, "/api/counts", id, false)
	return nil
}

func (h *Handler) countBin(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return err
	}
	binID, err := pathID(r, "binLocationId", "bin location")
	if err != nil {
		return err
	}
	var body countBinBody
	if err := h.decode(w, r, &body); err != nil {
		return err
	}
	lines := make([]count.Line, len(body.Lines))
	for i, l := range body.Lines {
		property := fmt.Sprintf("lines[%d]", i)
		q, err := stock.ParseQuantity(property+".quantity", *l.Quantity)
		if err != nil {
			return err
		}
		lot, err := lineLot(l.Lot, property)
		if err != nil {
			return err
		}
		lines[i] = count.Line{ArticleDetailID: l.ArticleDetailID, Quantity: q}
		if lot != nil {
			if err := lot.Validate(property + ".lot"); err != nil {
				return err
			}
			lines[i].Lot, lines[i].BestBefore, lines[i].BestBeforeGiven = lot.Number, lot.BestBefore, lot.BestBeforeGiven
		}
	}
	if err := h.app.CountBin(r.Context(), id, binID, lines); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) changeCount(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return err
	}
	var body countChangeBody
	if err := h.decode(w, r, &body, "id", "warehouseId", "blind", "lockBins", "createdAt", "bins"); err != nil {
		return err
	}
	if body.Status != string(count.Cancelled) {
		return errs.InvalidFields(errs.FieldError{Property: "status", Message: fmt.Sprintf("can only be set to %q, not %q", count.Cancelled, body.Status)})
	}
	if err := h.app.CancelCount(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

// applyCount books a count once. An Idempotency-Key header makes a retry
// safe, by the rules of the batches.
func (h *Handler) applyCount(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "count")
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
	if raw != nil {
		var empty struct{}
		if err := decodeStrict(raw, &empty); err != nil {
			return err
		}
	}
	if meta.Key != "" {
		meta.Endpoint = "POST " + r.URL.Path
		meta.Fingerprint = fingerprint(raw)
	}
	out, err := h.app.ApplyCount(r.Context(), meta, id, func(a application.CountApplied) ([]byte, error) {
		body := countAppliedJSON{ID: a.ID, Released: make([]countReleasedJSON, len(a.Released))}
		for i, rel := range a.Released {
			body.Released[i] = released(rel)
		}
		return json.Marshal(dataBody[countAppliedJSON]{Success: true, Data: body})
	})
	if err != nil {
		return err
	}
	if out.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeRaw(w, http.StatusOK, out.Body)
	return nil
}

func released(r order.Released) countReleasedJSON {
	return countReleasedJSON{OrderID: r.OrderID, OrderDetailID: r.OrderDetailID, BinLocationID: r.BinLocationID, Quantity: r.Quantity}
}
