package console

import (
	"encoding/hex"
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
	// LotsOf are the lots of each lot-tracked product on the bin (by
	// article detail id), expired ones marked: each is counted in a box of
	// its own.
	LotsOf map[int64][]lotRow
}

// lotCountField is the count box of a product's lot on the bin page: the
// lot's number in hex, so that any number makes a field name.
func lotCountField(article int64, number string) string {
	return fmt.Sprintf("qty_%d_%s", article, hex.EncodeToString([]byte(number)))
}

// countField reads a count box's name: the product, and the lot ("" for
// a product that is not counted by lot); ok is false for any other field.
func countField(field string) (article int64, lot string, ok bool) {
	rest, found := strings.CutPrefix(field, "qty_")
	if !found {
		return 0, "", false
	}
	id, lotHex, byLot := strings.Cut(rest, "_")
	article, err := strconv.ParseInt(id, 10, 64)
	if err != nil || article <= 0 {
		return 0, "", false
	}
	if byLot {
		raw, err := hex.DecodeString(lotHex)
		if err != nil || len(raw) == 0 {
			return 0, "", false
		}
		lot = string(raw)
	}
	return article, lot, true
}

func (h *Handler) binRoutes() {
	h.page("GET /console/bins/{id}", h.showBin)
	h.action("POST /console/bins/{id}/count", access.WriteStock, h.countBin)
}
func (h *Handler) showBin(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	return h.binPage(w, r, u, id, http.StatusOK, nil)
}

// Counting a bin sets every product whose box was filled in (and one
// more, when named) to what was counted, in one batch. The boxes start
// empty: a count is blind, and a box left empty counts nothing.
func (h *Handler) countBin(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	f := postedForm(r)
	ops, err := h.binCounts(r, f, id)
	if err != nil {
		return err
	}
	if f.Failed() {
		return h.binPage(w, r, u, id, http.StatusBadRequest, f)
	}
	run, err := h.stockBatch(r.Context(), u, f, "stock/set", "bins/count", ops)
	if err := formError(f, err); err != nil {
		return err
	}
	h.placeCountResults(r, f, ops, run)
	if f.Failed() {
		return h.binPage(w, r, u, id, http.StatusBadRequest, f.renew())
	}
	h.redirect(w, r, fmt.Sprintf("/console/bins/%d", id), replayNotice(run, counted(len(ops))))
	return nil
}

// binCounts reads a bin's count form into its operations, in one order
// whatever the form's: a set for every box filled in, and one for the
// product found there, when named.
func (h *Handler) binCounts(r *http.Request, f *form, id int64) ([]application.BatchOperation, error) {
	at := stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
	var ops []application.BatchOperation
	for field := range f.Values {
		article, lot, ok := countField(field)
		if !ok || f.Val(field) == "" {
			continue
		}
		held, err := h.held(r.Context(), article, id)
		if err != nil {
			return nil, err
		}
		if ok, err := h.entry(r.Context(), f, field, held, scanInto{}); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		q := f.quantity(field, false)
		op := stock.Set{ArticleDetailID: article, At: at, Quantity: q}
		if lot != "" {
			op.Lot = &stock.LotSpec{Number: lot}
		}
		ops = append(ops, application.BatchOperation{OperationID: operationID(field), Op: op})
	}
	if number := f.Val("number"); number != "" {
		if _, err := h.entry(r.Context(), f, "newQuantity", 0, scanInto{product: "number"}); err != nil {
			return nil, err
		}
		q := f.quantity("newQuantity", false)
		lot := f.lot("lot", "bestBefore")
		article, err := h.articleByNumber(r, number)
		if err != nil {
			return nil, err
		}
		if article == 0 {
			f.fail("number", fmt.Sprintf("There is no product with number %q.", number))
		}
		ops = append(ops, application.BatchOperation{OperationID: operationID("newQuantity"), Op: stock.Set{ArticleDetailID: article, At: at, Quantity: q, Lot: lot}})
	}
	if len(ops) == 0 && !f.Failed() {
		if f.Val("found") != "" {
			f.fail("number", "Scan or type the number of the product you found.")
		} else {
			f.fail("", "Nothing was counted: type what you counted into the boxes.")
		}
	}
	sort.SliceStable(ops, func(i, j int) bool { return string(ops[i].OperationID) < string(ops[j].OperationID) })
	return ops, nil
}

// placeCountResults puts each failed count beside its box.
func (h *Handler) placeCountResults(r *http.Request, f *form, ops []application.BatchOperation, run batchRun) {
	for i, res := range run.Results {
		if res.Success {
			continue
		}
		var field string
		_ = json.Unmarshal(ops[i].OperationID, &field)
		if field == "newQuantity" {
			// The product found: a lot's fault goes beside the lot.
			h.placeResult(r.Context(), f, res, lotFields, field)
			continue
		}
		f.fail(field, h.say(r.Context(), res.failure()))
	}
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
	d.LotsOf = map[int64][]lotRow{}
	now := h.app.Now()
	for _, l := range d.Lines {
		if len(l.Lots) > 0 {
			d.LotsOf[l.ArticleDetailID] = lotRows(l.Lots, now)
		}
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
