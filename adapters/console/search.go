package console

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// searchLimit is how many matches of each kind the search shows.
const searchLimit = 25

type binMatch struct {
	Bin       *warehouse.BinLocation
	Warehouse string
}

type searchData struct {
	Query    string
	Products []application.ArticleStock
	Bins     []binMatch
	Orders   []*order.Order
	Searched bool
}

func like(q string) string { return "%" + q + "%" }

func (h *Handler) searchRoutes() {
	h.page("GET /console/search", func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		ctx := r.Context()
		q := strings.TrimSpace(r.URL.Query().Get("q"))
		d := searchData{Query: q, Searched: q != ""}
		if q != "" {
			// A scanned code that names exactly one thing opens it at once.
			products, err := h.app.ArticleDetails(ctx, ports.ListQuery{Limit: searchLimit, Filters: []ports.Filter{
				{Property: "articleDetail.number", Expression: ports.ExprLike, Values: []any{like(q)}},
				{Property: "articleDetail.name", Expression: ports.ExprLike, Values: []any{like(q)}, Or: true},
			}, Sorts: []ports.Sort{{Property: "articleDetail.number"}}})
			if err != nil {
				return err
			}
			bins, err := h.app.BinLocations(ctx, ports.ListQuery{Limit: searchLimit, Filters: []ports.Filter{
				{Property: "binLocation.code", Expression: ports.ExprLike, Values: []any{like(q)}},
			}, Sorts: []ports.Sort{{Property: "binLocation.code"}}})
			if err != nil {
				return err
			}
			orders, err := h.app.Orders(ctx, ports.ListQuery{Limit: searchLimit, Filters: []ports.Filter{
				{Property: "order.number", Expression: ports.ExprLike, Values: []any{like(q)}},
			}, Sorts: []ports.Sort{{Property: "order.number"}}})
			if err != nil {
				return err
			}
			var exact []string
			for _, p := range products.Items {
				if strings.EqualFold(p.Article.Number(), q) {
					exact = append(exact, fmt.Sprintf("/console/products/%d", p.Article.ID()))
				}
			}
			for _, b := range bins.Items {
				if strings.EqualFold(b.Code(), q) {
					exact = append(exact, fmt.Sprintf("/console/bins/%d", b.ID()))
				}
			}
			for _, o := range orders.Items {
				if strings.EqualFold(o.Number(), q) {
					exact = append(exact, fmt.Sprintf("/console/orders/%d", o.ID()))
				}
			}
			if len(exact) == 1 {
				http.Redirect(w, r, exact[0], http.StatusSeeOther)
				return nil
			}
			whs, err := h.warehouses(r)
			if err != nil {
				return err
			}
			code := map[int64]string{}
			for _, wh := range whs {
				code[wh.ID()] = wh.Code()
			}
			d.Products, d.Orders = products.Items, orders.Items
			for _, b := range bins.Items {
				d.Bins = append(d.Bins, binMatch{Bin: b, Warehouse: code[b.WarehouseID()]})
			}
		}
		h.render(w, r, http.StatusOK, "search", view{Title: "Search", Nav: "search", User: u, Query: q, Data: d})
		return nil
	})
}
