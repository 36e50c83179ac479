package console

import (
	"net/http"
	"strconv"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/ports"
)

// lowPerPage is the page size of the low-stock list.
const lowPerPage = 50

type lowStockData struct {
	Products    []application.ArticleStock
	Page, Pages int
	Total       int
}

func (h *Handler) lowStockRoutes() {
	h.page("GET /console/low-stock", h.lowStock)
}
func (h *Handler) lowStock(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	d := lowStockData{Page: 1}
	if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && p < 1_000_000 {
		d.Page = p
	}
	// The same filter as GET /api/articleDetails?…belowReorderPoint=true.
	p, err := h.app.ArticleDetails(r.Context(), ports.ListQuery{Start: (d.Page - 1) * lowPerPage, Limit: lowPerPage,
		Filters: []ports.Filter{{Property: "articleDetail.belowReorderPoint", Expression: ports.ExprEqual, Values: []any{true}}},
		Sorts:   []ports.Sort{{Property: "articleDetail.number"}}})
	if err != nil {
		return err
	}
	d.Products, d.Total = p.Items, p.Total
	d.Pages = max(1, (p.Total+lowPerPage-1)/lowPerPage)
	h.render(w, r, http.StatusOK, "lowstock", view{Title: "Low stock", Nav: "low", User: u, Data: d})
	return nil
}
