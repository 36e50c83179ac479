package console

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// ledgerLimit is how many of the latest ledger entries a product shows.
const ledgerLimit = 15

type ledgerRow struct {
	ports.LedgerRecord
	Warehouse, Bin string
}

type productData struct {
	Article    *catalog.ArticleDetail
	Figures    stock.Figures
	Lines      []ports.StockLine
	Defaults   []ports.StockLine
	Ledger     []ledgerRow
	Warehouses []*warehouse.Warehouse
	DefaultWH  int64
	Forms      map[string]*form
}

var productForms = []string{"goods", "move", "count", "default"}

func (h *Handler) productRoutes() {
	h.page("GET /console/products/{id}", func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "product")
		if err != nil {
			return err
		}
		return h.productPage(w, r, u, id, http.StatusOK, nil)
	})
	h.productAction("goods", "stock/change", locationFields("", "warehouse", "bin"), func(f *form, id int64) (stock.Operation, string) {
		at := f.location("warehouse", "bin")
		q := f.quantity("quantity", true)
		switch f.Val("direction") {
		case "in":
			return stock.Change{ArticleDetailID: id, At: at, Quantity: q}, fmt.Sprintf("Booked %d in.", q)
		case "out":
			return stock.Change{ArticleDetailID: id, At: at, Quantity: -q}, fmt.Sprintf("Booked %d out.", q)
		}
		f.fail("", "Choose goods in or goods out.")
		return nil, ""
	})
	h.productAction("move", "stock/relocate", locationFields("destination.", "warehouse", "bin").with(fields{"source": "from"}), func(f *form, id int64) (stock.Operation, string) {
		from := f.id("from", "the bin location to move from")
		to := f.location("warehouse", "bin")
		op := stock.Relocate{ArticleDetailID: id, From: stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: from}}, To: to}
		if f.Val("all") != "" {
			op.All = true
			return op, "Moved everything."
		}
		op.Quantity = f.quantity("quantity", true)
		return op, fmt.Sprintf("Moved %d.", op.Quantity)
	})
	h.productAction("count", "stock/set", locationFields("", "warehouse", "bin"), func(f *form, id int64) (stock.Operation, string) {
		at := f.location("warehouse", "bin")
		q := f.quantity("quantity", false)
		return stock.Set{ArticleDetailID: id, At: at, Quantity: q}, fmt.Sprintf("Counted %d.", q)
	})
	h.action("POST /console/products/{id}/default", access.WriteStock, func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "product")
		if err != nil {
			return err
		}
		f := postedForm(r)
		isDefault := f.Val("unset") == ""
		binID, err := h.binByCode(r, f, "warehouse", "bin")
		if err != nil {
			return err
		}
		if !f.Failed() {
			err := h.app.SetDefaultBinLocation(r.Context(), binID, id, isDefault)
			switch errs.KindOf(err) {
			case errs.Invalid, errs.NotFound:
				f.placeError(err, fields{"binLocation": "bin"}, "bin")
			default:
				if err != nil {
					return err
				}
			}
		}
		if f.Failed() {
			return h.productPage(w, r, u, id, http.StatusBadRequest, map[string]*form{"default": f})
		}
		msg := "Default bin location set."
		if !isDefault {
			msg = "Default bin location removed."
		}
		h.redirect(w, r, fmt.Sprintf("/console/products/%d", id), msg)
		return nil
	})
}

// location reads a warehouse chosen in a select and an optional bin code
// typed or scanned: the bin, or the warehouse by its default strategy.
func (f *form) location(warehouseField, binField string) stock.LocationSpec {
	wh := f.id(warehouseField, "a warehouse")
	if code := f.Val(binField); code != "" {
		return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: code, WarehouseID: wh}}
	}
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: wh}}
}

// binByCode looks up the bin a form names by warehouse and code.
func (h *Handler) binByCode(r *http.Request, f *form, warehouseField, binField string) (int64, error) {
	if id, err := strconv.ParseInt(f.Val("binId"), 10, 64); err == nil && id > 0 {
		return id, nil
	}
	wh := f.id(warehouseField, "a warehouse")
	code := f.Val(binField)
	if code == "" {
		f.fail(binField, "Enter or scan a bin location code.")
	}
	if f.Failed() {
		return 0, nil
	}
	p, err := h.app.BinLocations(r.Context(), ports.ListQuery{Limit: 1, Filters: []ports.Filter{
		{Property: "binLocation.warehouseId", Expression: ports.ExprEqual, Values: []any{wh}},
		{Property: "binLocation.code", Expression: ports.ExprEqual, Values: []any{code}},
	}})
	if err != nil {
		return 0, err
	}
	if len(p.Items) == 0 {
		f.fail(binField, fmt.Sprintf("There is no bin location %q in this warehouse.", code))
		return 0, nil
	}
	return p.Items[0].ID(), nil
}

// productAction registers a stock form of the product page: it reads the
// operation, runs it through the batch engine under the form's key and
// returns to the page, or shows the page again with the errors beside
// their fields (where: the fields of the operation's properties besides
// its quantity).
func (h *Handler) productAction(name, endpoint string, where fields, build func(f *form, id int64) (stock.Operation, string)) {
	h.action("POST /console/products/{id}/"+name, access.WriteStock, func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "product")
		if err != nil {
			return err
		}
		f := postedForm(r)
		op, done := build(f, id)
		if f.Failed() {
			return h.productPage(w, r, u, id, http.StatusBadRequest, map[string]*form{name: f})
		}
		run, err := h.stockBatch(r.Context(), u, f, endpoint, "products/"+name, []application.BatchOperation{{OperationID: []byte("1"), Op: op}})
		if err := formError(f, err); err != nil {
			return err
		}
		if !f.Failed() && !run.Results[0].Success {
			f.placeResult(run.Results[0], where.with(fields{"quantity": "quantity"}), "quantity")
		}
		if f.Failed() {
			return h.productPage(w, r, u, id, http.StatusBadRequest, map[string]*form{name: f.renew()})
		}
		h.redirect(w, r, fmt.Sprintf("/console/products/%d", id), replayNotice(run, done))
		return nil
	})
}

func (h *Handler) productPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, posted map[string]*form) error {
	ctx := r.Context()
	v, err := h.app.ArticleDetail(ctx, id)
	if err != nil {
		return err
	}
	d := productData{Article: v.Article, Figures: v.Figures, Forms: map[string]*form{}}
	if d.Lines, err = h.app.StockLines(ctx, ports.StockLineFilter{ArticleDetailID: id}); err != nil {
		return err
	}
	for _, l := range d.Lines {
		if l.DefaultMapping {
			d.Defaults = append(d.Defaults, l)
		}
	}
	whs, err := h.warehouses(r)
	if err != nil {
		return err
	}
	d.Warehouses = whs
	for _, wh := range whs {
		if wh.IsDefault() {
			d.DefaultWH = wh.ID()
		}
	}
	if d.Ledger, err = h.ledger(r, whs, ports.Filter{Property: "stockLedgerEntry.articleDetailId", Expression: ports.ExprEqual, Values: []any{id}}); err != nil {
		return err
	}
	for _, name := range productForms {
		d.Forms[name] = newForm()
		d.Forms[name].Values["warehouse"] = strconv.FormatInt(d.DefaultWH, 10)
		if f, ok := posted[name]; ok {
			d.Forms[name] = f
		}
	}
	if _, ok := posted["goods"]; !ok {
		goodsInFromScan(r, d.Forms["goods"])
	}
	h.render(w, r, status, "product", view{Title: v.Article.Number(), Nav: "search", User: u, Data: d})
	return nil
}

// warehouses lists every warehouse, for the location selects.
func (h *Handler) warehouses(r *http.Request) ([]*warehouse.Warehouse, error) {
	p, err := h.app.Warehouses(r.Context(), ports.ListQuery{Limit: limit.DefaultListLimit, Sorts: []ports.Sort{{Property: "warehouse.code"}}})
	return p.Items, err
}

// ledger reads the latest entries that match filter, with the codes of
// their warehouses and bin locations.
func (h *Handler) ledger(r *http.Request, whs []*warehouse.Warehouse, filter ports.Filter) ([]ledgerRow, error) {
	ctx := r.Context()
	p, err := h.app.StockLedgerEntries(ctx, ports.ListQuery{Limit: ledgerLimit, Filters: []ports.Filter{filter},
		Sorts: []ports.Sort{{Property: "stockLedgerEntry.id", Descending: true}}})
	if err != nil {
		return nil, err
	}
	whCode := map[int64]string{}
	for _, wh := range whs {
		whCode[wh.ID()] = wh.Code()
	}
	var binIDs []any
	for _, e := range p.Items {
		binIDs = append(binIDs, e.BinLocationID)
	}
	binCode := map[int64]string{}
	if len(binIDs) > 0 {
		bins, err := h.app.BinLocations(ctx, ports.ListQuery{Limit: len(binIDs), Filters: []ports.Filter{
			{Property: "binLocation.id", Expression: ports.ExprIn, Values: binIDs},
		}})
		if err != nil {
			return nil, err
		}
		for _, b := range bins.Items {
			binCode[b.ID()] = b.Code()
		}
	}
	rows := make([]ledgerRow, len(p.Items))
	for i, e := range p.Items {
		rows[i] = ledgerRow{LedgerRecord: e, Warehouse: whCode[e.WarehouseID], Bin: binCode[e.BinLocationID]}
	}
	return rows, nil
}
