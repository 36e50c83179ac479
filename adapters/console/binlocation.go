package console

import (
	"net/http"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

type binData struct {
	Bin       *warehouse.BinLocation
	Warehouse *warehouse.Warehouse
	Lines     []ports.StockLine
	Ledger    ledgerData
	// Count is the form that opens a count of the bin (the count page
	// then takes the scans); OpenCount the count that covers it, 0: none.
	Count     *form
	OpenCount int64
	// Name is how the pages name the bin.
	Name string
	// LotsOf are the lots of each lot-tracked product on the bin (by
	// article detail id), expired ones marked.
	LotsOf map[int64][]lotRow
}

func (h *Handler) binRoutes() {
	h.page("GET /console/bins/{id}", h.showBin)
}

func (h *Handler) showBin(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	return h.binPage(w, r, u, id, http.StatusOK, nil)
}

func (h *Handler) binPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, posted *form) error {
	ctx := r.Context()
	v, err := h.app.BinLocation(ctx, id)
	if err != nil {
		return err
	}
	d := binData{Bin: v.BinLocation, Count: newForm(), Name: binName(v.BinLocation.Code())}
	if posted != nil {
		d.Count = posted
	}
	if d.OpenCount, err = h.app.OpenCountOn(ctx, id); err != nil {
		return err
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
