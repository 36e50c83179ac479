package console

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// binsPerPage is the page size of a warehouse's bin list.
const binsPerPage = 50

type warehouseData struct {
	Warehouse *warehouse.Warehouse
	Bins      []*warehouse.BinLocation
	Query     string
	Page      int
	Pages     int
	Total     int
	Form      *form
}

func (h *Handler) warehouseRoutes() {
	h.page("GET /console/warehouses", h.listWarehouses)
	h.page("GET /console/warehouses/{id}", h.showWarehouse)
	h.action("POST /console/warehouses/{id}/generate", access.ManageWarehouses, h.generateBins)
}
func (h *Handler) listWarehouses(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	whs, err := h.warehouses(r)
	if err != nil {
		return err
	}
	h.render(w, r, http.StatusOK, "warehouses", view{Title: "Warehouses", Nav: "warehouses", User: u, Data: whs})
	return nil
}

func (h *Handler) showWarehouse(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	return h.warehousePage(w, r, u, id, http.StatusOK, nil)
}

// Generating is idempotent by nature: it adds the codes still missing.
func (h *Handler) generateBins(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "warehouse")
	if err != nil {
		return err
	}
	n, err := h.app.GenerateBinLocations(r.Context(), id)
	if errs.KindOf(err) == errs.Invalid {
		f := postedForm(r)
		f.fail("", messageOf(err))
		return h.warehousePage(w, r, u, id, http.StatusBadRequest, f)
	}
	if err != nil {
		return err
	}
	h.redirect(w, r, fmt.Sprintf("/console/warehouses/%d", id), fmt.Sprintf("Generated %d new bin locations.", n))
	return nil
}

func (h *Handler) warehousePage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, posted *form) error {
	ctx := r.Context()
	wh, err := h.app.Warehouse(ctx, id)
	if err != nil {
		return err
	}
	d := warehouseData{Warehouse: wh, Query: strings.TrimSpace(r.URL.Query().Get("q")), Page: 1, Form: posted}
	if d.Form == nil {
		d.Form = newForm()
	}
	if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && p < 1_000_000 {
		d.Page = p
	}
	filters := []ports.Filter{{Property: "binLocation.warehouseId", Expression: ports.ExprEqual, Values: []any{id}}}
	if d.Query != "" {
		filters = append(filters, ports.Filter{Property: "binLocation.code", Expression: ports.ExprLike, Values: []any{like(d.Query)}})
	}
	p, err := h.app.BinLocations(ctx, ports.ListQuery{Start: (d.Page - 1) * binsPerPage, Limit: binsPerPage,
		Filters: filters, Sorts: []ports.Sort{{Property: "binLocation.code"}}})
	if err != nil {
		return err
	}
	d.Bins, d.Total = p.Items, p.Total
	d.Pages = max(1, (p.Total+binsPerPage-1)/binsPerPage)
	h.render(w, r, status, "warehouse", view{Title: "Warehouse " + wh.Code(), Nav: "warehouses", User: u, Data: d})
	return nil
}

// like is a list filter's pattern for what holds q.
func like(q string) string { return "%" + q + "%" }
