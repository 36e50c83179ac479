package console

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// label is one printable label: the barcode and the lines under it.
type label struct {
	Barcode template.HTML
	Caption string
	Detail  string
}

type labelsData struct {
	Heading string
	Labels  []label
	Back    string
}

func (h *Handler) labelRoutes() {
	h.page("GET /console/bins/{id}/label", h.binLabel)
	h.page("GET /console/warehouses/{id}/labels", h.warehouseLabels)
	h.page("GET /console/products/{id}/label", h.productLabel)
}
func (h *Handler) binLabel(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	v, err := h.app.BinLocation(r.Context(), id)
	if err != nil {
		return err
	}
	wh, err := h.app.Warehouse(r.Context(), v.BinLocation.WarehouseID())
	if err != nil {
		return err
	}
	code := v.BinLocation.Code()
	repeated, err := h.repeatedCodes(r, []string{code})
	if err != nil {
		return err
	}
	d := labelsData{Heading: "Label of bin " + code, Back: fmt.Sprintf("/console/bins/%d", id), Labels: []label{{
		Barcode: code128SVG(warehouse.LabelText(code, wh.Code(), repeated[code]), labelBarHeight), Caption: binCaption(code, wh.Code(), repeated), Detail: wh.Code() + " · " + wh.Name(),
	}}}
	h.render(w, r, http.StatusOK, "labels", view{Title: d.Heading, Nav: "warehouses", User: u, Data: d})
	return nil
}

// The bins a warehouse's list shows (its filter and page), one label each.
func (h *Handler) warehouseLabels(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	wh, err := h.app.Warehouse(r.Context(), id)
	if err != nil {
		return err
	}
	q, page := strings.TrimSpace(r.URL.Query().Get("q")), 1
	if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && p < 1_000_000 {
		page = p
	}
	filters := []ports.Filter{{Property: "binLocation.warehouseId", Expression: ports.ExprEqual, Values: []any{id}}}
	if q != "" {
		filters = append(filters, ports.Filter{Property: "binLocation.code", Expression: ports.ExprLike, Values: []any{like(q)}})
	}
	bins, err := h.app.BinLocations(r.Context(), ports.ListQuery{Start: (page - 1) * binsPerPage, Limit: binsPerPage,
		Filters: filters, Sorts: []ports.Sort{{Property: "binLocation.code"}}})
	if err != nil {
		return err
	}
	d := labelsData{Heading: "Labels of warehouse " + wh.Code(), Back: fmt.Sprintf("/console/warehouses/%d?%s", id, r.URL.RawQuery)}
	var codes []string
	for _, b := range bins.Items {
		codes = append(codes, b.Code())
	}
	repeated, err := h.repeatedCodes(r, codes)
	if err != nil {
		return err
	}
	for _, b := range bins.Items {
		if b.IsNull() {
			continue // stock without a bin has no shelf to stick a label on
		}
		d.Labels = append(d.Labels, label{Barcode: code128SVG(warehouse.LabelText(b.Code(), wh.Code(), repeated[b.Code()]), labelBarHeight), Caption: binCaption(b.Code(), wh.Code(), repeated), Detail: wh.Code()})
	}
	h.render(w, r, http.StatusOK, "labels", view{Title: d.Heading, Nav: "warehouses", User: u, Data: d})
	return nil
}

func (h *Handler) productLabel(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "product")
	if err != nil {
		return err
	}
	v, err := h.app.ArticleDetail(r.Context(), id)
	if err != nil {
		return err
	}
	a := v.Article
	l := label{Caption: a.Number(), Detail: a.Name()}
	if s, err := productSymbol(a); err == nil {
		l.Barcode = s.svg(labelBarHeight)
	} else {
		l.Barcode = undrawable(a.Number(), "Code 128")
	}
	d := labelsData{Heading: "Label of product " + a.Number(), Back: fmt.Sprintf("/console/products/%d", id), Labels: []label{l}}
	h.render(w, r, http.StatusOK, "labels", view{Title: d.Heading, Nav: "search", User: u, Data: d})
	return nil
}

// repeatedCodes are those of codes that name bin locations in more than
// one warehouse.
func (h *Handler) repeatedCodes(r *http.Request, codes []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(codes) == 0 {
		return out, nil
	}
	values := make([]any, len(codes))
	for i, c := range codes {
		values[i] = c
	}
	p, err := h.app.BinLocations(r.Context(), ports.ListQuery{Limit: limit.MaxListLimit, Filters: []ports.Filter{
		{Property: "binLocation.code", Expression: ports.ExprIn, Values: values}}})
	if err != nil {
		return nil, err
	}
	seen := map[string]int64{}
	for _, b := range p.Items {
		if wh, ok := seen[b.Code()]; ok && wh != b.WarehouseID() {
			out[b.Code()] = true
		}
		seen[b.Code()] = b.WarehouseID()
	}
	return out, nil
}

// binCaption is the text under a bin's barcode: its code, and its
// warehouse's code in front where the code repeats across warehouses, so
// that a person tells the shelves apart, as the barcode does for a
// scanner (warehouse.LabelText).
func binCaption(code, wh string, repeated map[string]bool) string {
	if repeated[code] {
		return wh + " · " + code
	}
	return code
}
