package console

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// The move page relocates stock as a scanner walks it: the bin the goods
// lie on, the product, the quantity (or "all"), the bin they go to. Each
// scan's Enter moves on to the next field; the last one's moves.

type moveData struct {
	Form       *form
	Warehouses []*warehouse.Warehouse
}

// moveFields are the properties of a relocation and the fields of the
// move form that hold them.
var moveFields = fields{
	"source":          "from",
	"destination":     "to",
	"quantity":        "quantity",
	"articleDetailId": "product",
	"lot":             "product",
}

func (h *Handler) relocateRoutes() {
	h.page("GET /console/move", h.showMove)
	h.action("POST /console/move", access.WriteStock, h.move)
}

func (h *Handler) showMove(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	f := newForm()
	if from := strings.TrimSpace(r.URL.Query().Get("from")); from != "" {
		f.Values["from"] = from
	}
	return h.movePage(w, r, u, http.StatusOK, f)
}

func (h *Handler) move(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	ctx := r.Context()
	f := postedForm(r)
	wh := f.id("warehouse", "a warehouse")
	if err := h.readBinLabels(r, f, wh, "from", "to"); err != nil {
		return err
	}
	from := f.Val("from")
	if from == "" {
		f.fail("from", "Scan the bin location the goods lie on.")
	}
	goods, err := h.scannedProduct(ctx, f, "product")
	if err != nil {
		return err
	}
	all := strings.EqualFold(f.Val("quantity"), "all")
	q := 0
	if !all && goods.id != 0 {
		held, err := h.held(ctx, goods.id, 0)
		if err != nil {
			return err
		}
		if ok, err := h.entry(ctx, f, "quantity", held, scanInto{bin: "to"}); err != nil {
			return err
		} else if ok {
			q = f.quantity("quantity", true)
		}
	}
	// A bin scanned into the quantity has gone to the destination.
	to := f.Val("to")
	if to == "" {
		f.fail("to", "Scan the bin location the goods go to.")
	}
	for _, field := range []string{"from", "to"} {
		if err := h.checkBinIn(r, f, wh, field); err != nil {
			return err
		}
	}
	if f.Failed() {
		return h.movePage(w, r, u, http.StatusBadRequest, f)
	}
	free, err := h.freeOn(ctx, goods, wh, from)
	if err != nil {
		return err
	}
	op := stock.Relocate{ArticleDetailID: goods.id, Quantity: q, All: all, Lot: goods.lot,
		From: stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: from, WarehouseID: wh}},
		To:   stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: to, WarehouseID: wh}}}
	run, err := h.stockBatch(ctx, u, f, "stock/relocate", "move", []application.BatchOperation{{OperationID: []byte("1"), Op: op}})
	if err := formError(f, err); err != nil {
		return err
	}
	if !f.Failed() && !run.Results[0].Success {
		h.placeResult(ctx, f, run.Results[0], moveFields, "quantity")
	}
	if f.Failed() {
		return h.movePage(w, r, u, http.StatusBadRequest, f.renew())
	}
	what := fmt.Sprintf("%d × %s%s", q, goods.number, ofLot(goods.lot))
	if all {
		what = fmt.Sprintf("all %d × %s%s", free, goods.number, ofLot(goods.lot))
	}
	h.redirect(w, r, "/console/move", replayNotice(run, fmt.Sprintf("Moved %s from %s to %s.", what, from, to)))
	return nil
}

// scannedGoods is a product named by a scan, with the lot the scan names.
type scannedGoods struct {
	id     int64
	number string
	lot    *stock.LotSpec
}

// scannedProduct reads the product a field names: its number, EAN or
// GS1 element string (whose lot it takes, for a lot-tracked product), or
// a lot's number. What names no product is an error beside the field.
func (h *Handler) scannedProduct(ctx context.Context, f *form, field string) (scannedGoods, error) {
	raw := f.Val(field)
	if raw == "" {
		f.fail(field, "Scan or type the product.")
		return scannedGoods{}, nil
	}
	t, err := h.app.ResolveScan(ctx, raw)
	if err != nil {
		return scannedGoods{}, err
	}
	var g scannedGoods
	lot := ""
	switch t.Kind {
	case application.ScanProduct:
		g = scannedGoods{id: t.Product.ID, number: t.Product.Code}
	case application.ScanGoods:
		g, lot = scannedGoods{id: t.Product.ID, number: t.Product.Code}, t.Goods.Lot
	case application.ScanLot:
		g, lot = scannedGoods{id: t.Lot.ParentID, number: t.Lot.ParentCode}, t.Lot.Code
	case application.ScanMalformed:
		f.fail(field, t.Problem)
		return g, nil
	default:
		f.fail(field, fmt.Sprintf("%s is no product.", raw))
		return g, nil
	}
	if lot != "" {
		v, err := h.app.ArticleDetail(ctx, g.id)
		if err != nil {
			return g, err
		}
		if v.Article.LotTracked() {
			g.lot = &stock.LotSpec{Number: lot}
		}
	}
	return g, nil
}

// freeOn is what of the goods may leave the bin with that code: what "all"
// moves.
func (h *Handler) freeOn(ctx context.Context, g scannedGoods, wh int64, code string) (int, error) {
	lines, err := h.app.StockLines(ctx, ports.StockLineFilter{ArticleDetailID: g.id})
	n := 0
	for _, l := range lines {
		if l.WarehouseID != wh || l.BinLocationCode != code {
			continue
		}
		if g.lot == nil {
			n += l.Movable()
			continue
		}
		for _, lot := range l.Lots {
			if lot.Number == g.lot.Number {
				n += stock.Unreserved(lot.Stock, lot.ReservedStock)
			}
		}
	}
	return n, err
}

func (h *Handler) movePage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, status int, f *form) error {
	whs, err := h.warehouses(r)
	if err != nil {
		return err
	}
	if f.Val("warehouse") == "" {
		for _, wh := range whs {
			if wh.IsDefault() {
				f.Values["warehouse"] = strconv.FormatInt(wh.ID(), 10)
			}
		}
	}
	h.render(w, r, status, "move", view{Title: "Move", Nav: "move", User: u, Focus: true, Data: moveData{Form: f, Warehouses: whs}})
	return nil
}
