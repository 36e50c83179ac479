package console

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/barcode"
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

// lotMatch is a lot whose number was searched for, with its product's
// number.
type lotMatch struct {
	application.LotRead
	Product string
}

type searchData struct {
	Query    string
	Products []application.ArticleStock
	Bins     []binMatch
	Orders   []*order.Order
	Lots     []lotMatch
	Searched bool
}

func like(q string) string { return "%" + q + "%" }

func (h *Handler) searchRoutes() {
	h.page("GET /console/search", func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		ctx := r.Context()
		q := strings.TrimSpace(r.URL.Query().Get("q"))
		d := searchData{Query: q, Searched: q != ""}
		var alert string
		if q != "" {
			// What the scanner sent, without its symbology identifier, is
			// searched for as text; a GTIN also finds its product.
			scan, err := h.app.ReadScan(q)
			if err != nil {
				alert = err.Error() + "."
			}
			term := scan.Text
			var byGTIN []application.ArticleStock
			if scan.GTIN != "" {
				if byGTIN, err = h.productsWithGTIN(r, scan.GTIN); err != nil {
					return err
				}
			}
			// A GS1 scan is goods arriving: it opens the product's goods-in.
			if scan.GS1 != nil && len(byGTIN) == 1 {
				http.Redirect(w, r, goodsInAfterScan(byGTIN[0].Article.ID(), *scan.GS1), http.StatusSeeOther)
				return nil
			}
			// A scanned code that names exactly one thing opens it at once.
			products, err := h.app.ArticleDetails(ctx, ports.ListQuery{Limit: searchLimit, Filters: []ports.Filter{
				{Property: "articleDetail.number", Expression: ports.ExprLike, Values: []any{like(term)}},
				{Property: "articleDetail.name", Expression: ports.ExprLike, Values: []any{like(term)}, Or: true},
			}, Sorts: []ports.Sort{{Property: "articleDetail.number"}}})
			if err != nil {
				return err
			}
			bins, err := h.app.BinLocations(ctx, ports.ListQuery{Limit: searchLimit, Filters: []ports.Filter{
				{Property: "binLocation.code", Expression: ports.ExprLike, Values: []any{like(term)}},
			}, Sorts: []ports.Sort{{Property: "binLocation.code"}}})
			if err != nil {
				return err
			}
			orders, err := h.app.Orders(ctx, ports.ListQuery{Limit: searchLimit, Filters: []ports.Filter{
				{Property: "order.number", Expression: ports.ExprLike, Values: []any{like(term)}},
			}, Sorts: []ports.Sort{{Property: "order.number"}}})
			if err != nil {
				return err
			}
			// Lot numbers are found as they are written: a scanned lot is
			// its whole number.
			lots, err := h.app.LotsNumbered(ctx, term)
			if err != nil {
				return err
			}
			var exact []string
			for _, p := range byGTIN {
				exact = append(exact, fmt.Sprintf("/console/products/%d", p.Article.ID()))
			}
			for _, p := range products.Items {
				if strings.EqualFold(p.Article.Number(), term) && !hasProduct(byGTIN, p.Article.ID()) {
					exact = append(exact, fmt.Sprintf("/console/products/%d", p.Article.ID()))
				}
			}
			for _, b := range bins.Items {
				if strings.EqualFold(b.Code(), term) {
					exact = append(exact, fmt.Sprintf("/console/bins/%d", b.ID()))
				}
			}
			for _, o := range orders.Items {
				if strings.EqualFold(o.Number(), term) {
					exact = append(exact, fmt.Sprintf("/console/orders/%d", o.ID()))
				}
			}
			for _, l := range lots {
				// A lot opens its product, unless the product itself
				// matched already.
				if to := fmt.Sprintf("/console/products/%d", l.Lot.ArticleDetailID); !slices.Contains(exact, to) {
					exact = append(exact, to)
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
			d.Products, d.Orders = byGTIN, orders.Items
			for _, p := range products.Items {
				if !hasProduct(byGTIN, p.Article.ID()) {
					d.Products = append(d.Products, p)
				}
			}
			for _, b := range bins.Items {
				d.Bins = append(d.Bins, binMatch{Bin: b, Warehouse: code[b.WarehouseID()]})
			}
			for _, l := range lots {
				d.Lots = append(d.Lots, lotMatch{LotRead: l, Product: h.productNumber(ctx, l.Lot.ArticleDetailID)})
			}
			// Digits that happen to be a GTIN may be meant as a number of
			// something else; a GS1 scan is meant as a product.
			if scan.GTIN != "" && len(byGTIN) == 0 && (scan.GS1 != nil || len(d.Products)+len(d.Bins)+len(d.Orders)+len(d.Lots) == 0) {
				alert = fmt.Sprintf("No product has the GTIN %s.", scan.GTIN)
			}
		}
		h.render(w, r, http.StatusOK, "search", view{Title: "Search", Nav: "search", User: u, Query: q, Alert: alert, Data: d})
		return nil
	})
}

// productsWithGTIN finds the product whose ean is gtin in whichever
// spelling the shop wrote it (a GTIN-14 or a UPC-A finds an EAN-13).
func (h *Handler) productsWithGTIN(r *http.Request, gtin barcode.GTIN) ([]application.ArticleStock, error) {
	var spellings []any
	for _, s := range gtin.Spellings() {
		spellings = append(spellings, s)
	}
	p, err := h.app.ArticleDetails(r.Context(), ports.ListQuery{Limit: searchLimit, Filters: []ports.Filter{
		{Property: "articleDetail.ean", Expression: ports.ExprIn, Values: spellings},
	}})
	return p.Items, err
}

func hasProduct(list []application.ArticleStock, id int64) bool {
	for _, p := range list {
		if p.Article.ID() == id {
			return true
		}
	}
	return false
}

// goodsInAfterScan is the product page a GS1 scan opens, at its goods-in
// form, with the scan's lot (AI 10) and best-before date (AI 17, else 15)
// in the query for the form to take (goodsInFromScan).
func goodsInAfterScan(id int64, es barcode.ElementString) string {
	v := url.Values{}
	if es.Lot != "" {
		v.Set("lot", es.Lot)
	}
	if !es.BestBefore.IsZero() {
		v.Set("bestBefore", es.BestBefore.Format("2006-01-02"))
	}
	to := fmt.Sprintf("/console/products/%d", id)
	if len(v) > 0 {
		to += "?" + v.Encode()
	}
	return to + "#goods-in"
}

// goodsInFromScan reads what goodsInAfterScan put in the query into the
// goods-in form's values: its lot and best-before fields (named "lot" and
// "bestBefore"), which the form of a lot-tracked product shows. A product
// that is not lot-tracked has no such fields, and the scan's lot is not
// used.
func goodsInFromScan(r *http.Request, goods *form) {
	for _, name := range []string{"lot", "bestBefore"} {
		if v := r.URL.Query().Get(name); v != "" {
			goods.Values[name] = v
		}
	}
}
