package http

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

type warehouseJSON struct {
	ID                             int64             `json:"id"`
	Code                           string            `json:"code"`
	Name                           string            `json:"name"`
	StockAvailableForSale          bool              `json:"stockAvailableForSale"`
	DefaultWarehouse               bool              `json:"defaultWarehouse"`
	DefaultReturnShipmentWarehouse bool              `json:"defaultReturnShipmentWarehouse"`
	NullBinLocationID              int64             `json:"nullBinLocationId"`
	Contact                        string            `json:"contact"`
	Email                          string            `json:"email"`
	Phone                          string            `json:"phone"`
	Address                        string            `json:"address"`
	Comment                        string            `json:"comment"`
	BinLocationFormatComponents    []formatComponent `json:"binLocationFormatComponents"`
}

// formatComponent is one element of binLocationFormatComponents; which of
// from/to/value/padding apply depends on type.
type formatComponent struct {
	Type    string          `json:"type"`
	Value   *string         `json:"value,omitempty"`
	From    json.RawMessage `json:"from,omitempty"`
	To      json.RawMessage `json:"to,omitempty"`
	Padding *int            `json:"padding,omitempty"`
}

func toWarehouseJSON(w *warehouse.Warehouse) warehouseJSON {
	d := w.Details()
	out := warehouseJSON{
		ID: w.ID(), Code: d.Code, Name: d.Name, StockAvailableForSale: d.StockAvailableForSale,
		DefaultWarehouse: w.IsDefault(), DefaultReturnShipmentWarehouse: w.IsDefaultReturn(),
		NullBinLocationID: w.NullBinLocationID(), Contact: d.Contact, Email: d.Email, Phone: d.Phone,
		Address: d.Address, Comment: d.Comment, BinLocationFormatComponents: []formatComponent{},
	}
	for _, c := range d.BinLocationFormat {
		fc := formatComponent{Type: string(c.Type)}
		switch c.Type {
		case warehouse.ComponentText:
			text := c.Text
			fc.Value = &text
		case warehouse.ComponentNumber:
			fc.From, fc.To = json.RawMessage(fmt.Sprint(c.NumberFrom)), json.RawMessage(fmt.Sprint(c.NumberTo))
			if c.Padding != 0 {
				// No padding and padding 0 mean the same; the form without
				// it is the one a client that needs none sends.
				padding := c.Padding
				fc.Padding = &padding
			}
		case warehouse.ComponentLetter:
			from, _ := json.Marshal(c.LetterFrom)
			to, _ := json.Marshal(c.LetterTo)
			fc.From, fc.To = from, to
		}
		out.BinLocationFormatComponents = append(out.BinLocationFormatComponents, fc)
	}
	return out
}

// toDomainFormat reads the components, naming the first one that is wrong.
func toDomainFormat(in []formatComponent) ([]warehouse.FormatComponent, error) {
	out := make([]warehouse.FormatComponent, 0, len(in))
	for i, fc := range in {
		prop := fmt.Sprintf("binLocationFormatComponents[%d]", i)
		bad := func(field, msg string) error {
			return errs.InvalidFields(errs.FieldError{Property: prop + field, Message: msg})
		}
		c := warehouse.FormatComponent{Type: warehouse.ComponentType(fc.Type)}
		switch c.Type {
		case warehouse.ComponentText:
			if fc.Value == nil {
				return nil, bad(".value", "is required for a text component")
			}
			if fc.From != nil || fc.To != nil || fc.Padding != nil {
				return nil, bad("", "a text component takes only type and value")
			}
			c.Text = *fc.Value
		case warehouse.ComponentNumber:
			if fc.Value != nil {
				return nil, bad("", "a number component takes type, from, to and padding")
			}
			if err := json.Unmarshal(fc.From, &c.NumberFrom); err != nil || fc.From == nil {
				return nil, bad(".from", "must be an integer")
			}
			if err := json.Unmarshal(fc.To, &c.NumberTo); err != nil || fc.To == nil {
				return nil, bad(".to", "must be an integer")
			}
			if fc.Padding != nil {
				c.Padding = *fc.Padding
			}
		case warehouse.ComponentLetter:
			if fc.Value != nil || fc.Padding != nil {
				return nil, bad("", "a letter component takes type, from and to")
			}
			if err := json.Unmarshal(fc.From, &c.LetterFrom); err != nil || fc.From == nil {
				return nil, bad(".from", "must be a letter")
			}
			if err := json.Unmarshal(fc.To, &c.LetterTo); err != nil || fc.To == nil {
				return nil, bad(".to", "must be a letter")
			}
		default:
			return nil, bad(".type", `must be one of "text", "number", "letter"`)
		}
		out = append(out, c)
	}
	return out, nil
}

type warehouseCreateBody struct {
	Code                        string            `json:"code" validate:"required"`
	Name                        string            `json:"name" validate:"required"`
	StockAvailableForSale       *bool             `json:"stockAvailableForSale"`
	Contact                     string            `json:"contact"`
	Email                       string            `json:"email"`
	Phone                       string            `json:"phone"`
	Address                     string            `json:"address"`
	Comment                     string            `json:"comment"`
	BinLocationFormatComponents []formatComponent `json:"binLocationFormatComponents"`
}

type warehouseUpdateBody struct {
	Code                        *string            `json:"code"`
	Name                        *string            `json:"name"`
	StockAvailableForSale       *bool              `json:"stockAvailableForSale"`
	Contact                     *string            `json:"contact"`
	Email                       *string            `json:"email"` // may be "" to clear it; the domain checks the address
	Phone                       *string            `json:"phone"`
	Address                     *string            `json:"address"`
	Comment                     *string            `json:"comment"`
	BinLocationFormatComponents *[]formatComponent `json:"binLocationFormatComponents"`
}

var warehouseReadOnly = []string{"id", "defaultWarehouse", "defaultReturnShipmentWarehouse", "nullBinLocationId"}

func (h *Handler) warehouseRoutes() {
	h.api("GET /api/warehouses", h.listWarehouses)
	h.api("POST /api/warehouses", h.createWarehouse)
	h.api("GET /api/warehouses/{id}", h.getWarehouse)
	h.api("PUT /api/warehouses/{id}", h.updateWarehouse)
	h.api("DELETE /api/warehouses/{id}", h.deleteWarehouse)
	h.api("PUT /api/warehouses/{id}/default", h.makeDefaultWarehouse)
	h.api("PUT /api/warehouses/{id}/defaultReturnShipment", h.makeDefaultReturnWarehouse)
	h.api("POST /api/warehouses/{id}/binLocations/generate", h.generateBinLocations)
}

func (h *Handler) listWarehouses(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.WarehouseFields, h.app.Warehouses, toWarehouseJSON)
}

func (h *Handler) getWarehouse(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	wh, err := h.app.Warehouse(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[warehouseJSON]{Success: true, Data: toWarehouseJSON(wh)})
	return nil
}

func (h *Handler) createWarehouse(w http.ResponseWriter, r *http.Request) error {
	var body warehouseCreateBody
	if err := h.decode(w, r, &body, warehouseReadOnly...); err != nil {
		return err
	}
	format, err := toDomainFormat(body.BinLocationFormatComponents)
	if err != nil {
		return err
	}
	d := warehouse.Details{
		Code: body.Code, Name: body.Name, StockAvailableForSale: body.StockAvailableForSale == nil || *body.StockAvailableForSale,
		Contact: body.Contact, Email: body.Email, Phone: body.Phone, Address: body.Address, Comment: body.Comment,
		BinLocationFormat: format,
	}
	id, err := h.app.CreateWarehouse(r.Context(), d)
	if err != nil {
		return err
	}
	h.writeCreated(w, r, "/api/warehouses", id, true)
	return nil
}

func (h *Handler) updateWarehouse(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	var body warehouseUpdateBody
	if err := h.decode(w, r, &body, warehouseReadOnly...); err != nil {
		return err
	}
	p := warehouse.Patch{
		Code: body.Code, Name: body.Name, StockAvailableForSale: body.StockAvailableForSale, Contact: body.Contact,
		Email: body.Email, Phone: body.Phone, Address: body.Address, Comment: body.Comment,
	}
	if body.BinLocationFormatComponents != nil {
		format, err := toDomainFormat(*body.BinLocationFormatComponents)
		if err != nil {
			return err
		}
		p.BinLocationFormat = &format
	}
	if err := h.app.UpdateWarehouse(r.Context(), id, p); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) deleteWarehouse(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	if err := h.app.DeleteWarehouse(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) makeDefaultWarehouse(w http.ResponseWriter, r *http.Request) error {
	return h.warehouseAction(w, r, h.app.MakeDefaultWarehouse)
}

func (h *Handler) makeDefaultReturnWarehouse(w http.ResponseWriter, r *http.Request) error {
	return h.warehouseAction(w, r, h.app.MakeDefaultReturnWarehouse)
}

func (h *Handler) warehouseAction(w http.ResponseWriter, r *http.Request, action func(ctx context.Context, id int64) error) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	if err := emptyObject(w, r); err != nil {
		return err
	}
	if err := action(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) generateBinLocations(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	if err := emptyObject(w, r); err != nil {
		return err
	}
	n, err := h.app.GenerateBinLocations(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[map[string]int]{Success: true, Data: map[string]int{"created": n}})
	return nil
}
