package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

type binData struct {
	Bin       *warehouse.BinLocation
	Warehouse *warehouse.Warehouse
	Lines     []ports.StockLine
	Ledger    ledgerData
	// Form counts what the bin was expected to hold, Found a product
	// found there that was not.
	Form, Found *form
	// Name is how the pages name the bin.
	Name string
}

func (h *Handler) binRoutes() {
	h.page("GET /console/bins/{id}", func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "bin location")
		if err != nil {
			return err
		}
		return h.binPage(w, r, u, id, http.StatusOK, nil)
	})
	// Counting a bin sets every product whose box was filled in (and one
	// more, when named) to what was counted, in one batch. The boxes start
	// empty: a count is blind, and a box left empty counts nothing.
	h.action("POST /console/bins/{id}/count", access.WriteStock, func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "bin location")
		if err != nil {
			return err
		}
		f := postedForm(r)
		at := stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
		var ops []application.BatchOperation
		for field := range f.Values {
			article, err := strconv.ParseInt(strings.TrimPrefix(field, "qty_"), 10, 64)
			if !strings.HasPrefix(field, "qty_") || err != nil || article <= 0 || f.Val(field) == "" {
				continue
			}
			q := f.quantity(field, false)
			ops = append(ops, application.BatchOperation{OperationID: operationID(field), Op: stock.Set{ArticleDetailID: article, At: at, Quantity: q}})
		}
		if number := f.Val("number"); number != "" {
			q := f.quantity("newQuantity", false)
			article, err := h.articleByNumber(r, number)
			if err != nil {
				return err
			}
			if article == 0 {
				f.fail("number", fmt.Sprintf("There is no product with number %q.", number))
			}
			ops = append(ops, application.BatchOperation{OperationID: operationID("newQuantity"), Op: stock.Set{ArticleDetailID: article, At: at, Quantity: q}})
		}
		found := f.Val("found") != ""
		if len(ops) == 0 && !f.Failed() {
			if found {
				f.fail("number", "Scan or type the number of the product you found.")
			} else {
				f.fail("", "Nothing was counted: type what you counted into the boxes.")
			}
		}
		if f.Failed() {
			return h.binPage(w, r, u, id, http.StatusBadRequest, f)
		}
		// One order for the batch, whatever the form's.
		sort.SliceStable(ops, func(i, j int) bool { return string(ops[i].OperationID) < string(ops[j].OperationID) })
		run, err := h.stockBatch(r.Context(), u, f, "stock/set", "bins/count", ops)
		if err := formError(f, err); err != nil {
			return err
		}
		for i, res := range run.Results {
			if !res.Success {
				var field string
				_ = json.Unmarshal(ops[i].OperationID, &field)
				f.fail(field, h.say(r.Context(), res.failure()))
			}
		}
		if f.Failed() {
			return h.binPage(w, r, u, id, http.StatusBadRequest, f.renew())
		}
		h.redirect(w, r, fmt.Sprintf("/console/bins/%d", id), replayNotice(run, counted(len(ops))))
		return nil
	})
}

// articleByNumber is the id of the product with that number, 0 when none.
func (h *Handler) articleByNumber(r *http.Request, number string) (int64, error) {
	p, err := h.app.ArticleDetails(r.Context(), ports.ListQuery{Limit: 1, Filters: []ports.Filter{
		{Property: "articleDetail.number", Expression: ports.ExprEqual, Values: []any{number}},
	}})
	if err != nil || len(p.Items) == 0 {
		return 0, err
	}
	return p.Items[0].Article.ID(), nil
}

func (h *Handler) binPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, posted *form) error {
	ctx := r.Context()
	v, err := h.app.BinLocation(ctx, id)
	if err != nil {
		return err
	}
	d := binData{Bin: v.BinLocation, Form: newForm(), Found: newForm(), Name: binName(v.BinLocation.Code())}
	if posted != nil && posted.Val("found") != "" {
		d.Found = posted
	} else if posted != nil {
		d.Form = posted
	}
	if d.Warehouse, err = h.app.Warehouse(ctx, v.BinLocation.WarehouseID()); err != nil {
		return err
	}
	if d.Lines, err = h.app.StockLines(ctx, ports.StockLineFilter{BinLocationID: id}); err != nil {
		return err
	}
	if d.Ledger, err = h.ledger(r, ports.Filter{Property: "stockLedgerEntry.binLocationId", Expression: ports.ExprEqual, Values: []any{id}}); err != nil {
		return err
	}
	title := "Bin " + d.Name
	if d.Name != v.BinLocation.Code() {
		title = "Unassigned stock in " + d.Warehouse.Code()
	}
	h.render(w, r, status, "bin", view{Title: title, Nav: "warehouses", User: u, Data: d})
	return nil
}

// operationID names an operation by its form field; the ledger keeps it as
// JSON, as it keeps the ids API clients send.
func operationID(field string) []byte {
	raw, _ := json.Marshal(field)
	return raw
}

func counted(n int) string {
	if n == 1 {
		return "Counted 1 product."
	}
	return fmt.Sprintf("Counted %d products.", n)
}
