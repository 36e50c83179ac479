package console

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/barcode"
)

type searchData struct {
	Query string
	*application.ScanMatches
	Searched bool
}

func (h *Handler) searchRoutes() {
	h.page("GET /console/search", h.search)
}

// search opens what a scan names, or lists what it matches.
func (h *Handler) search(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	d := searchData{Query: q, ScanMatches: &application.ScanMatches{}}
	var alert string
	if q != "" {
		t, err := h.app.ResolveScan(r.Context(), q)
		if err != nil {
			return err
		}
		if to := scanPage(t); to != "" {
			http.Redirect(w, r, to, http.StatusSeeOther)
			return nil
		}
		d.Searched, alert = true, t.Problem
		if t.Kind == application.ScanMalformed {
			alert = "This scan is " + t.Problem
		}
		if t.Matches != nil {
			d.ScanMatches = t.Matches
		}
	}
	h.render(w, r, http.StatusOK, "search", view{Title: "Search", Nav: "search", User: u, Query: q, Alert: alert, Data: d})
	return nil
}

// scanPage is the page a scan that names one record opens ("" for a scan
// that does not).
func scanPage(t application.ScanTarget) string {
	switch t.Kind {
	case application.ScanProduct:
		return fmt.Sprintf("/console/products/%d", t.Product.ID)
	case application.ScanLot:
		// A lot's number asks where the lot is and who received it.
		return fmt.Sprintf("/console/lots/%d", t.Lot.ID)
	case application.ScanGoods:
		// A GS1 scan is goods arriving: it opens the product's goods-in.
		return goodsInAfterScan(t.Product.ID, *t.Goods)
	case application.ScanBinLocations:
		if len(t.Bins) == 1 {
			return fmt.Sprintf("/console/bins/%d", t.Bins[0].ID)
		}
	case application.ScanOrder:
		return fmt.Sprintf("/console/orders/%d", t.Order.ID)
	case application.ScanPurchaseOrder:
		return fmt.Sprintf("/console/receiving/%d", t.PurchaseOrder.ID)
	}
	return ""
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

// scanProblem tells what is wrong with a scan meant as a GS1 element
// string, as ReadScan found it.
func scanProblem(err error) string {
	return "This scan is " + err.Error() + "."
}
