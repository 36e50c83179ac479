package console

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

type productData struct {
	Article *catalog.ArticleDetail
	Figures stock.Figures
	// Ordered is what open orders still have to ship: available stock is
	// the stock for sale less this.
	Ordered    int
	Lines      []ports.StockLine
	Defaults   []ports.StockLine
	Ledger     ledgerData
	Warehouses []*warehouse.Warehouse
	DefaultWH  int64
	Forms      map[string]*form
	// LotTracked: the stock forms ask for lots (goods in and counts need
	// one; goods out and moves may name one, else they take the lot that
	// expires first).
	LotTracked bool
	// LotsAt are the lots on each bin location (by id), as Lines' Lots
	// with their expiry on today's date.
	LotsAt map[int64][]lotRow
	// LotNumbers are the product's lots on any bin, for the lot fields to
	// offer.
	LotNumbers []string
}

// lotRow is a lot on a bin as the product page shows it.
type lotRow struct {
	Number        string
	BestBefore    string
	Expired       bool
	Stock         int
	ReservedStock int
}

// lotRows are a line's lots as the page shows them, expired ones marked by
// the date of now.
func lotRows(lots []ports.MappingLot, now time.Time) []lotRow {
	out := make([]lotRow, len(lots))
	for i, l := range lots {
		lot := stock.Lot{Number: l.Number, BestBefore: l.BestBefore}
		out[i] = lotRow{Number: l.Number, BestBefore: lot.BestBeforeText(), Expired: lot.ExpiredOn(now),
			Stock: l.Stock, ReservedStock: l.ReservedStock}
	}
	return out
}

// lotFields are the properties of an operation's lot and the fields of a
// form that hold them.
var lotFields = fields{"lot": "lot", "lot.bestBefore": "bestBefore"}

// lot reads the lot a form names: nil when its number field is empty. The
// best-before field (dateField, "" for a form without one) is a date
// YYYY-MM-DD, as a date input sends it; left empty, it names an existing
// lot or makes one without a date.
func (f *form) lot(numberField, dateField string) *stock.LotSpec {
	number := f.Val(numberField)
	date := ""
	if dateField != "" {
		date = f.Val(dateField)
	}
	if number == "" {
		if date != "" {
			f.fail(numberField, "Enter or scan the lot number of this best-before date.")
		}
		return nil
	}
	spec := &stock.LotSpec{Number: number}
	if date != "" {
		d, err := stock.ParseDate(date)
		if err != nil {
			f.fail(dateField, "Enter a date as YYYY-MM-DD.")
			return spec
		}
		spec.BestBefore, spec.BestBeforeGiven = &d, true
	}
	return spec
}

// ofLot names a form's lot in its notice: " of lot L-7", or nothing.
func ofLot(l *stock.LotSpec) string {
	if l == nil {
		return ""
	}
	return " of lot " + l.Number
}

var productForms = []string{"in", "out", "move", "count", "default"}

func (h *Handler) productRoutes() {
	h.page("GET /console/products/{id}", h.showProduct)
	// Goods in and goods out are forms of their own, each with one button:
	// the Enter a scanner sends after a code submits the form it was
	// scanned into, never a stock-in the worker did not choose.
	// The lot fields are on the forms of lot-tracked products only; on
	// others they are not sent, and the operations name no lot.
	h.productAction("in", "stock/change", locationFields("", "warehouse", "bin").with(lotFields), goodsIn)
	h.productAction("out", "stock/change", locationFields("", "warehouse", "bin").with(lotFields), goodsOut)
	h.productAction("move", "stock/relocate", locationFields("destination.", "warehouse", "bin").with(fields{"source": "from"}).with(lotFields), moveStock)
	h.productAction("count", "stock/set", locationFields("", "warehouse", "bin").with(lotFields), countStock)
	h.action("POST /console/products/{id}/default", access.WriteStock, h.setDefaultBin)
}

// goodsIn reads the goods-in form: a stock change into a bin or warehouse.
func goodsIn(f *form, id int64) (stock.Operation, string) {
	at := f.location("warehouse", "bin")
	q := f.quantity("quantity", true)
	lot := f.lot("lot", "bestBefore")
	return stock.Change{ArticleDetailID: id, At: at, Quantity: q, Lot: lot}, fmt.Sprintf("Booked %d%s in %s.", q, ofLot(lot), f.where("bin"))
}

// goodsOut reads the goods-out form: a stock change out of a bin or
// warehouse.
func goodsOut(f *form, id int64) (stock.Operation, string) {
	at := f.location("warehouse", "bin")
	q := f.quantity("quantity", true)
	lot := f.lot("lot", "")
	return stock.Change{ArticleDetailID: id, At: at, Quantity: -q, Lot: lot}, fmt.Sprintf("Booked %d%s out of %s.", q, ofLot(lot), f.destination("bin"))
}

// moveStock reads the move form: a quantity, or everything free, from a
// bin to another bin or warehouse.
func moveStock(f *form, id int64) (stock.Operation, string) {
	from := f.id("from", "the bin location to move from")
	to := f.location("warehouse", "bin")
	lot := f.lot("lot", "")
	op := stock.Relocate{ArticleDetailID: id, From: stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: from}}, To: to, Lot: lot}
	if f.Val("all") != "" {
		op.All = true
		return op, fmt.Sprintf("Moved everything%s that was free to %s.", ofLot(lot), f.destination("bin"))
	}
	op.Quantity = f.quantity("quantity", true)
	return op, fmt.Sprintf("Moved %d%s to %s.", op.Quantity, ofLot(lot), f.destination("bin"))
}

// countStock reads the count form: the stock of a bin, or of the whole
// warehouse.
func countStock(f *form, id int64) (stock.Operation, string) {
	at := f.location("warehouse", "bin")
	q := f.quantity("quantity", false)
	lot := f.lot("lot", "bestBefore")
	where := "in the whole warehouse"
	if f.Val("bin") != "" {
		where = f.where("bin")
	}
	return stock.Set{ArticleDetailID: id, At: at, Quantity: q, Lot: lot}, fmt.Sprintf("Counted %d%s %s.", q, ofLot(lot), where)
}

func (h *Handler) showProduct(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "product")
	if err != nil {
		return err
	}
	return h.productPage(w, r, u, id, http.StatusOK, nil)
}

func (h *Handler) setDefaultBin(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
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
			h.placeError(r.Context(), f, err, fields{"binLocation": "bin"}, "bin")
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

// where names the place a form's bin field names, for its notice.
func (f *form) where(binField string) string {
	if code := f.Val(binField); code != "" {
		return "at " + code
	}
	return "in the warehouse"
}

// destination names where a move goes, for its notice.
func (f *form) destination(binField string) string {
	if code := f.Val(binField); code != "" {
		return code
	}
	return "the warehouse"
}

// checkBin fails the bin field of a form when its code names no bin
// location of the chosen warehouse.
func (h *Handler) checkBin(r *http.Request, f *form, warehouseField, binField string) error {
	wh, err := strconv.ParseInt(f.Val(warehouseField), 10, 64)
	if err != nil || !limit.ValidID(wh) {
		return nil
	}
	return h.checkBinIn(r, f, wh, binField)
}

// checkBinIn fails the bin field of a form when its code names no bin
// location of the warehouse.
func (h *Handler) checkBinIn(r *http.Request, f *form, wh int64, binField string) error {
	code := f.Val(binField)
	if code == "" {
		return nil
	}
	p, err := h.app.BinLocations(r.Context(), ports.ListQuery{Limit: 1, Filters: []ports.Filter{
		{Property: "binLocation.warehouseId", Expression: ports.ExprEqual, Values: []any{wh}},
		{Property: "binLocation.code", Expression: ports.ExprEqual, Values: []any{code}},
	}})
	if err != nil {
		return err
	}
	if len(p.Items) == 0 {
		f.fail(binField, fmt.Sprintf("There is no bin location %s in this warehouse.", code))
	}
	return nil
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
		if err := h.readBinLabelsIn(r, f, "warehouse", "bin"); err != nil {
			return err
		}
		held, err := h.held(r.Context(), id, 0)
		if err != nil {
			return err
		}
		if ok, err := h.entry(r.Context(), f, "quantity", held, scanInto{bin: "bin"}); err != nil {
			return err
		} else if !ok {
			return h.productPage(w, r, u, id, http.StatusBadRequest, map[string]*form{name: f})
		}
		op, done := build(f, id)
		// A bin code that names nothing is told now, beside whatever else
		// is wrong, rather than after the rest is put right.
		if err := h.checkBin(r, f, "warehouse", "bin"); err != nil {
			return err
		}
		if f.Failed() {
			return h.productPage(w, r, u, id, http.StatusBadRequest, map[string]*form{name: f})
		}
		run, err := h.stockBatch(r.Context(), u, f, endpoint, "products/"+name, []application.BatchOperation{{OperationID: []byte("1"), Op: op}})
		if err := formError(f, err); err != nil {
			return err
		}
		if !f.Failed() && !run.Results[0].Success {
			h.placeResult(r.Context(), f, run.Results[0], where.with(fields{"quantity": "quantity"}), "quantity")
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
	d := productData{Article: v.Article, Figures: v.Figures, Forms: map[string]*form{},
		Ordered: v.Figures.PhysicalStockForSale - v.Figures.AvailableStock, LotTracked: v.Article.LotTracked(), LotsAt: map[int64][]lotRow{}}
	if d.Lines, err = h.app.StockLines(ctx, ports.StockLineFilter{ArticleDetailID: id}); err != nil {
		return err
	}
	now := h.app.Now()
	for _, l := range d.Lines {
		if l.DefaultMapping {
			d.Defaults = append(d.Defaults, l)
		}
		d.LotsAt[l.BinLocationID] = lotRows(l.Lots, now)
		for _, lot := range l.Lots {
			if !slices.Contains(d.LotNumbers, lot.Number) {
				d.LotNumbers = append(d.LotNumbers, lot.Number)
			}
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
	if d.Ledger, err = h.ledger(r, ports.Filter{Property: "stockLedgerEntry.articleDetailId", Expression: ports.ExprEqual, Values: []any{id}}); err != nil {
		return err
	}
	for _, name := range productForms {
		d.Forms[name] = newForm()
		d.Forms[name].Values["warehouse"] = strconv.FormatInt(d.DefaultWH, 10)
		if f, ok := posted[name]; ok {
			d.Forms[name] = f
		}
	}
	if _, ok := posted["in"]; !ok {
		goodsInFromScan(r, d.Forms["in"])
	}
	h.render(w, r, status, "product", view{Title: v.Article.Number() + " " + v.Article.Name(), Nav: "search", User: u, Data: d})
	return nil
}

// warehouses lists every warehouse, for the location selects.
func (h *Handler) warehouses(r *http.Request) ([]*warehouse.Warehouse, error) {
	p, err := h.app.Warehouses(r.Context(), ports.ListQuery{Limit: limit.DefaultListLimit, Sorts: []ports.Sort{{Property: "warehouse.code"}}})
	return p.Items, err
}
