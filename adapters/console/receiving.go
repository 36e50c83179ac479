package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// The receiving page: the open purchase orders, and for one
// of them its lines with what is outstanding and a form that receives one
// product at a time, scanned or typed.

// receivable are the statuses of purchase orders that still take receipts.
var receivable = []any{string(purchase.Open), string(purchase.PartiallyReceived)}

type receivingData struct {
	Orders      []receivingOrder
	Page, Pages int
	Total       int
}

type receivingOrder struct {
	Order       *purchase.Order
	Warehouse   string
	Outstanding int
}

type receiptLineRow struct {
	Line        *purchase.Line
	Article     *catalog.ArticleDetail
	Outstanding int
	Chosen      bool
}

type receiptData struct {
	Order       *purchase.Order
	Warehouse   string
	Lines       []receiptLineRow
	Outstanding int
	Open        bool
	Receive     *form
	// Chosen is the line the form receives, once its product is known.
	Chosen *receiptLineRow
	// DefaultBin is the chosen product's default bin in the order's
	// warehouse, "" when it has none (then the unknown bin takes it).
	DefaultBin string
	// Lots tells whether the form asks for a lot: the chosen product is
	// lot-tracked, or a scan brought one.
	Lots bool
	// Focus is the field the next scan goes to.
	Focus string
}

// receiptFields are the properties of a one-line receipt and the fields of
// the form that hold them.
var receiptFields = fields{
	"lines[0].quantity":    "quantity",
	"lines[0].binLocation": "bin",
	"lines[0].lot":         "lot",
	"lines[0].lineId":      "product",
	"lines":                "product",
	"status":               "",
}

func (h *Handler) receivingRoutes() {
	h.page("GET /console/receiving", h.openPurchaseOrders)
	h.page("GET /console/receiving/{id}", h.showReceiving)
	h.action("POST /console/receiving/{id}", access.ReceiveGoods, h.receive)
}
func (h *Handler) openPurchaseOrders(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	d := receivingData{Page: 1}
	if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && p < 1_000_000 {
		d.Page = p
	}
	p, err := h.app.PurchaseOrders(r.Context(), ports.ListQuery{Start: (d.Page - 1) * ordersPerPage, Limit: ordersPerPage,
		Filters: []ports.Filter{{Property: "purchaseOrder.status", Expression: ports.ExprIn, Values: receivable}},
		Sorts:   []ports.Sort{{Property: "purchaseOrder.expectedAt"}, {Property: "purchaseOrder.id"}}})
	if err != nil {
		return err
	}
	codes, err := h.warehouseCodes(r)
	if err != nil {
		return err
	}
	for _, o := range p.Items {
		row := receivingOrder{Order: o, Warehouse: codes[o.WarehouseID()]}
		for _, l := range o.Lines() {
			row.Outstanding += o.Outstanding(l)
		}
		d.Orders = append(d.Orders, row)
	}
	d.Total = p.Total
	d.Pages = max(1, (p.Total+ordersPerPage-1)/ordersPerPage)
	h.render(w, r, http.StatusOK, "receiving", view{Title: "Receiving", Nav: "receiving", User: u, Data: d})
	return nil
}

func (h *Handler) showReceiving(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "purchase order")
	if err != nil {
		return err
	}
	// The product is scanned into a form of its own that only chooses the
	// line, so that its Enter books nothing.
	f := newForm()
	for _, name := range []string{"line", "product"} {
		if v := strings.TrimSpace(r.URL.Query().Get(name)); v != "" {
			f.Values[name] = v
		}
	}
	return h.receiptPage(w, r, u, id, http.StatusOK, f)
}

func (h *Handler) receive(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "purchase order")
	if err != nil {
		return err
	}
	o, err := h.app.PurchaseOrder(r.Context(), id)
	if err != nil {
		return err
	}
	f := postedForm(r)
	rows, err := h.receiptLines(r, o)
	if err != nil {
		return err
	}
	chosen := h.chooseLine(f, rows)
	if chosen == nil {
		return h.receiptPage(w, r, u, id, http.StatusBadRequest, f)
	}
	// A scanned product alone chooses the line: the page asks for the
	// quantity next, with the product's default bin offered.
	if f.Val("quantity") == "" && f.Val("bin") == "" {
		delete(f.Values, "bin")
		return h.receiptPage(w, r, u, id, http.StatusOK, f)
	}
	// What the line still expects bounds its quantity (an over-receipt
	// says so): only a code that landed in the box is told here.
	if ok, err := h.entry(r.Context(), f, "quantity", stock.MaxQuantity, scanInto{bin: "bin", product: "product"}); err != nil {
		return err
	} else if !ok {
		return h.receiptPage(w, r, u, id, http.StatusBadRequest, f)
	}
	line := purchase.ReceiptLine{LineID: chosen.Line.ID(), Quantity: f.quantity("quantity", true)}
	if chosen.Article != nil && chosen.Article.LotTracked() {
		if line.Lot = f.lot("lot", "bestBefore"); line.Lot == nil {
			f.fail("lot", "This product is lot-tracked: enter or scan the lot number.")
		}
	}
	if err := h.readBinLabels(r, f, o.WarehouseID(), "bin"); err != nil {
		return err
	}
	if err := h.checkBinIn(r, f, o.WarehouseID(), "bin"); err != nil {
		return err
	}
	if f.Failed() {
		return h.receiptPage(w, r, u, id, http.StatusBadRequest, f)
	}
	out, err := h.receiveLine(r, u, f, o, line, chosen)
	if err != nil {
		return err
	}
	if f.Failed() {
		return h.receiptPage(w, r, u, id, http.StatusBadRequest, f.renew())
	}
	notice, err := h.receiptNotice(r, id, out, chosen)
	if err != nil {
		return err
	}
	h.redirect(w, r, fmt.Sprintf("/console/receiving/%d", id), notice)
	return nil
}

// receiveLine books line of o into the bin the form names (the default
// strategy when none) under the form's key; what the service refuses is
// put beside the form's fields.
func (h *Handler) receiveLine(r *http.Request, u *application.ConsoleUser, f *form, o *purchase.Order, line purchase.ReceiptLine, chosen *receiptLineRow) (application.BatchOutcome, error) {
	if code := f.Val("bin"); code != "" {
		line.At = &stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: code, WarehouseID: o.WarehouseID()}}
	}
	meta := application.BatchMeta{Key: f.Key, Endpoint: "console purchaseOrders/receive",
		Fingerprint: f.fingerprint(fmt.Sprintf("console receive %d", o.ID())), User: u.Name}
	out, err := h.app.ReceivePurchaseOrder(r.Context(), meta, o.ID(), []purchase.ReceiptLine{line}, func(receiptID int64) ([]byte, error) {
		return json.Marshal(receiptID)
	})
	switch errs.KindOf(err) {
	case errs.Invalid, errs.NotFound:
		f.place(h.receiptMessage(r.Context(), err, chosen), errs.PropertyOf(err), receiptFields, "quantity")
	case errs.Conflict:
		_ = formError(f, err)
	default:
		return out, err
	}
	return out, nil
}

// receiptNotice says what a receipt booked, and that a resent form was
// applied once.
func (h *Handler) receiptNotice(r *http.Request, id int64, out application.BatchOutcome, chosen *receiptLineRow) (string, error) {
	var receiptID int64
	if err := json.Unmarshal(out.Body, &receiptID); err != nil {
		return "", err
	}
	notice, err := h.receivedNotice(r, id, receiptID, chosen)
	if err != nil {
		return "", err
	}
	if out.Replayed {
		notice = "This form had already been submitted; it was applied once. " + notice
	}
	return notice, nil
}

// receiptMessage is a refused receipt's message as the worker reads it
// beside the field: how many pieces the line still expects, or the rule
// broken in the worker's words, without the request's property names,
// which the field's place already says.
func (h *Handler) receiptMessage(ctx context.Context, err error, chosen *receiptLineRow) string {
	e, ok := errs.As(err)
	if !ok {
		return messageOf(err)
	}
	if e.Code == purchase.OverReceipt {
		number := "this product"
		if chosen.Article != nil {
			number = chosen.Article.Number()
		}
		if chosen.Outstanding == 0 {
			return fmt.Sprintf("Nothing more of %s is expected on this order.", number)
		}
		if chosen.Outstanding == 1 {
			return fmt.Sprintf("Only 1 more of %s is expected on this order.", number)
		}
		return fmt.Sprintf("Only %d more of %s are expected on this order.", chosen.Outstanding, number)
	}
	fl := failureOf(err)
	if len(e.Fields) == 1 {
		fl.Message = e.Fields[0].Message
	}
	return h.say(ctx, fl)
}

// chooseLine finds the line the form names: by what was scanned or typed
// into the product field (a product number, an EAN or GTIN, a GS1 element
// string, whose lot and best-before fill in the form's empty lot fields),
// else by the line chosen from the list. It puts an error beside the
// product when there is none.
func (h *Handler) chooseLine(f *form, rows []receiptLineRow) *receiptLineRow {
	product := f.Val("product")
	if product == "" {
		if id, err := strconv.ParseInt(f.Val("line"), 10, 64); err == nil {
			for i := range rows {
				if rows[i].Line.ID() == id {
					return &rows[i]
				}
			}
		}
		f.fail("product", "Scan or type a product number.")
		return nil
	}
	scan, err := h.app.ReadScan(product)
	if err != nil {
		f.fail("product", scanProblem(err))
		return nil
	}
	if scan.GTIN != "" {
		for i := range rows {
			if a := rows[i].Article; a != nil && a.EAN().Same(scan.GTIN) {
				if es := scan.GS1; es != nil {
					fillLot(f, es.Lot, es.BestBefore)
				}
				return &rows[i]
			}
		}
		if scan.GS1 != nil {
			f.fail("product", fmt.Sprintf("No line of this purchase order has the GTIN %s.", scan.GTIN))
			return nil
		}
	}
	for _, exact := range []bool{true, false} {
		for i := range rows {
			a := rows[i].Article
			if a != nil && (a.Number() == scan.Text || (!exact && strings.EqualFold(a.Number(), scan.Text))) {
				return &rows[i]
			}
		}
	}
	f.fail("product", fmt.Sprintf("%s is not on this purchase order.", product))
	return nil
}

// fillLot puts a scan's lot and best-before date into a form's empty lot
// fields.
func fillLot(f *form, lot string, bestBefore time.Time) {
	if lot != "" && f.Val("lot") == "" {
		f.Values["lot"] = lot
	}
	if !bestBefore.IsZero() && f.Val("bestBefore") == "" {
		f.Values["bestBefore"] = bestBefore.Format("2006-01-02")
	}
}

// receivedNotice says what the receipt brought, where it went and what is
// still outstanding on the line.
func (h *Handler) receivedNotice(r *http.Request, id, receiptID int64, chosen *receiptLineRow) (string, error) {
	ctx := r.Context()
	rec, err := h.app.PurchaseReceipt(ctx, id, receiptID)
	if err != nil {
		return "", err
	}
	o, err := h.app.PurchaseOrder(ctx, id)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, rl := range rec.Lines {
		bin := "#" + strconv.FormatInt(rl.BinLocationID, 10)
		if p, err := h.app.BinLocations(ctx, ports.ListQuery{Limit: 1, Filters: []ports.Filter{
			{Property: "binLocation.id", Expression: ports.ExprEqual, Values: []any{rl.BinLocationID}}}}); err == nil && len(p.Items) == 1 {
			bin = p.Items[0].Code()
		} else if err != nil {
			return "", err
		}
		outstanding := 0
		if l, ok := o.Line(rl.LineID); ok {
			outstanding = o.Outstanding(l)
		}
		number := "the product"
		if chosen.Article != nil {
			number = chosen.Article.Number()
		}
		if rl.LotNumber != "" {
			number += " of lot " + rl.LotNumber
		}
		parts = append(parts, fmt.Sprintf("Received %d × %s on %s; %d outstanding on this line.", rl.Quantity, number, bin, outstanding))
	}
	if o.Status() == purchase.Received {
		parts = append(parts, "The purchase order is received completely.")
	}
	return strings.Join(parts, " "), nil
}

// receiptLines are the order's lines with their products.
func (h *Handler) receiptLines(r *http.Request, o *purchase.Order) ([]receiptLineRow, error) {
	var ids []any
	for _, l := range o.Lines() {
		ids = append(ids, l.ArticleDetailID())
	}
	articles := map[int64]*catalog.ArticleDetail{}
	if len(ids) > 0 {
		p, err := h.app.ArticleDetails(r.Context(), ports.ListQuery{Limit: len(ids), Filters: []ports.Filter{
			{Property: "articleDetail.id", Expression: ports.ExprIn, Values: ids},
		}})
		if err != nil {
			return nil, err
		}
		for _, a := range p.Items {
			articles[a.Article.ID()] = a.Article
		}
	}
	rows := make([]receiptLineRow, 0, len(ids))
	for _, l := range o.Lines() {
		rows = append(rows, receiptLineRow{Line: l, Article: articles[l.ArticleDetailID()], Outstanding: o.Outstanding(l)})
	}
	return rows, nil
}

// receiptPage shows one purchase order with its lines and the receive form.
func (h *Handler) receiptPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, f *form) error {
	ctx := r.Context()
	o, err := h.app.PurchaseOrder(ctx, id)
	if err != nil {
		return err
	}
	codes, err := h.warehouseCodes(r)
	if err != nil {
		return err
	}
	d := receiptData{Order: o, Warehouse: codes[o.WarehouseID()], Open: o.Status().Receivable(), Receive: f}
	if d.Lines, err = h.receiptLines(r, o); err != nil {
		return err
	}
	for _, row := range d.Lines {
		d.Outstanding += row.Outstanding
	}
	d.Focus = "product"
	if f.Val("product") != "" || f.Val("line") != "" {
		probe := &form{Values: f.Values, Errors: map[string]string{}}
		chosen := h.chooseLine(probe, d.Lines)
		if msg := probe.Err("product"); msg != "" {
			f.fail("product", msg)
		}
		if chosen != nil {
			chosen.Chosen = true
			d.Chosen = chosen
			if chosen.Article != nil {
				f.Values["product"] = chosen.Article.Number()
				d.Lots = chosen.Article.LotTracked()
			}
			d.Lots = d.Lots || f.Val("lot") != "" || f.Err("lot") != ""
			delete(f.Values, "line")
			if d.DefaultBin, err = h.defaultBin(r, chosen.Line.ArticleDetailID(), o.WarehouseID()); err != nil {
				return err
			}
			if _, typed := f.Values["bin"]; !typed {
				f.Values["bin"] = d.DefaultBin
			}
			d.Focus = "quantity"
			if d.Lots && f.Val("lot") == "" {
				d.Focus = "lot"
			}
		}
	}
	h.render(w, r, status, "receipt", view{Title: "Receive " + o.Number(), Nav: "receiving", User: u, Focus: true, Data: d})
	return nil
}

// defaultBin is the code of the product's default bin in the warehouse, ""
// when it has none there.
func (h *Handler) defaultBin(r *http.Request, article, warehouseID int64) (string, error) {
	lines, err := h.app.StockLines(r.Context(), ports.StockLineFilter{ArticleDetailID: article})
	if err != nil {
		return "", err
	}
	for _, l := range lines {
		if l.DefaultMapping && l.WarehouseID == warehouseID {
			return l.BinLocationCode, nil
		}
	}
	return "", nil
}

// warehouseCodes are the codes of the warehouses by id.
func (h *Handler) warehouseCodes(r *http.Request) (map[int64]string, error) {
	whs, err := h.warehouses(r)
	codes := map[int64]string{}
	for _, wh := range whs {
		codes[wh.ID()] = wh.Code()
	}
	return codes, err
}

// CanReceive tells whether the signed-in user may receive goods.
func (v view) CanReceive() bool { return v.User != nil && may(v.User, access.ReceiveGoods) }
