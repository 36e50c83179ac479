package console

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// Lot recall: a lot's number or the GS1 barcode that carries it shows
// where the lot lies and which orders received it, so that a recall is
// one scan.

type recallData struct {
	Query string
	Lots  []application.ScanLotMatch
}

type lotData struct {
	Lot        application.LotRead
	Product    string
	BestBefore string
	Locations  []lotPlace
	// Shipped are the orders the lot was shipped to, Received the purchase
	// orders it came in on.
	Shipped, Received []lotOrder
	Ledger            ledgerData
}

type lotPlace struct {
	ports.LotLocation
	Warehouse string
}

// lotOrder is an order, or a purchase order, and how many pieces of the
// lot it took or brought.
type lotOrder struct {
	ID       int64
	Number   string
	Quantity int
}

func (h *Handler) lotRoutes() {
	h.page("GET /console/lots", h.recall)
	h.page("GET /console/lots/{id}", h.showLot)
	h.page("GET /console/lots/{id}/label", h.lotLabel)
}

// lotLabel is the GS1-128 label of a lot's goods: the product's GTIN (AI
// 01), the best-before (AI 17) and the lot (AI 10), what a scan at the
// ramp or at a recall reads back. A product without EAN, or a lot that AI
// 10 cannot hold, gets the lot's number in Code 128 and says why.
func (h *Handler) lotLabel(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	ctx := r.Context()
	id, err := pathID(r, "id", "lot")
	if err != nil {
		return err
	}
	l, err := h.app.Lot(ctx, id)
	if err != nil {
		return err
	}
	v, err := h.app.ArticleDetail(ctx, l.Lot.ArticleDetailID)
	if err != nil {
		return err
	}
	a := v.Article
	lb := label{Caption: "Lot " + l.Lot.Number, Detail: a.Number() + " " + a.Name()}
	if bb := l.Lot.BestBeforeText(); bb != "" {
		lb.Detail += " · best before " + bb
	}
	es := barcode.ElementString{GTIN: a.EAN(), Lot: l.Lot.Number}
	if l.Lot.BestBefore != nil {
		es.BestBefore = *l.Lot.BestBefore
	}
	raw, brackets, err := es.Encode()
	if err == nil {
		var s symbol
		if s, err = gs1Symbol(raw, brackets); err == nil {
			lb.Barcode = s.svg(labelBarHeight)
		}
	}
	if err != nil {
		lb.Barcode = code128SVG(l.Lot.Number, labelBarHeight)
		why := "the lot number does not fit GS1"
		if a.EAN() == "" {
			why = "the product has no EAN"
		}
		lb.Detail += " · no GS1 label: " + why
	}
	d := labelsData{Heading: "Label of lot " + l.Lot.Number, Back: fmt.Sprintf("/console/lots/%d", id), Labels: []label{lb}}
	h.render(w, r, http.StatusOK, "labels", view{Title: d.Heading, Nav: "lots", User: u, Data: d})
	return nil
}

// recall finds the lot a scan names: its number, or a GS1 element string
// with AI 10 (and the product's GTIN, which tells lots of one number
// apart).
func (h *Handler) recall(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	ctx := r.Context()
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	d := recallData{Query: q}
	alert := ""
	if q != "" {
		lots, problem, err := h.lotsScanned(ctx, q)
		if err != nil {
			return err
		}
		if len(lots) == 1 {
			http.Redirect(w, r, fmt.Sprintf("/console/lots/%d", lots[0].ID), http.StatusSeeOther)
			return nil
		}
		d.Lots, alert = lots, problem
	}
	h.render(w, r, http.StatusOK, "lots", view{Title: "Lot recall", Nav: "lots", User: u, Focus: true, Alert: alert, Data: d})
	return nil
}

// lotsScanned are the lots a scan names, or what is wrong with it.
func (h *Handler) lotsScanned(ctx context.Context, q string) ([]application.ScanLotMatch, string, error) {
	scan, err := h.app.ReadScan(q)
	if err != nil {
		return nil, scanProblem(err), nil
	}
	number := scan.Text
	if scan.GS1 != nil {
		if scan.GS1.Lot == "" {
			return nil, "This barcode carries no lot number (AI 10).", nil
		}
		number = scan.GS1.Lot
	}
	found, err := h.app.LotsNumbered(ctx, number)
	if err != nil {
		return nil, "", err
	}
	var out []application.ScanLotMatch
	for _, l := range found {
		v, err := h.app.ArticleDetail(ctx, l.Lot.ArticleDetailID)
		if err != nil {
			return nil, "", err
		}
		if scan.GS1 != nil && !v.Article.EAN().Same(scan.GTIN) {
			continue
		}
		out = append(out, application.ScanLotMatch{LotRead: l, Product: v.Article.Number()})
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("No lot %s is known.", number), nil
	}
	return out, "", nil
}

func (h *Handler) showLot(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	ctx := r.Context()
	id, err := pathID(r, "id", "lot")
	if err != nil {
		return err
	}
	l, err := h.app.Lot(ctx, id)
	if err != nil {
		return err
	}
	v, err := h.app.ArticleDetail(ctx, l.Lot.ArticleDetailID)
	if err != nil {
		return err
	}
	d := lotData{Lot: l, Product: v.Article.Number(), BestBefore: l.Lot.BestBeforeText()}
	codes, err := h.warehouseCodes(r)
	if err != nil {
		return err
	}
	for _, loc := range l.Locations {
		d.Locations = append(d.Locations, lotPlace{LotLocation: loc, Warehouse: codes[loc.WarehouseID]})
	}
	byLot := []ports.Filter{
		{Property: "stockLedgerEntry.articleDetailId", Expression: ports.ExprEqual, Values: []any{l.Lot.ArticleDetailID}},
		{Property: "stockLedgerEntry.lotNumber", Expression: ports.ExprEqual, Values: []any{l.Lot.Number}},
	}
	if d.Shipped, d.Received, err = h.lotOrders(ctx, byLot); err != nil {
		return err
	}
	if d.Ledger, err = h.ledger(r, byLot...); err != nil {
		return err
	}
	h.render(w, r, http.StatusOK, "lot", view{Title: "Lot " + l.Lot.Number, Nav: "lots", User: u, Data: d})
	return nil
}

// lotOrders sums the lot's ledger entries by the order they shipped to
// (less what came back) and the purchase order they came in on.
func (h *Handler) lotOrders(ctx context.Context, byLot []ports.Filter) (shipped, received []lotOrder, err error) {
	out, in := map[int64]int{}, map[int64]int{}
	for start := 0; ; start += limit.MaxListLimit {
		p, err := h.app.StockLedgerEntries(ctx, ports.ListQuery{Start: start, Limit: limit.MaxListLimit, Filters: byLot,
			Sorts: []ports.Sort{{Property: "stockLedgerEntry.id"}}})
		if err != nil {
			return nil, nil, err
		}
		for _, e := range p.Items {
			switch {
			case e.Ref.OrderID != 0:
				out[e.Ref.OrderID] -= e.Quantity
			case e.Ref.PurchaseOrderID != 0 && e.Type == stock.EntryReceipt:
				in[e.Ref.PurchaseOrderID] += e.Quantity
			}
		}
		if len(p.Items) < limit.MaxListLimit {
			break
		}
	}
	var ids []any
	for id := range out {
		ids = append(ids, id)
	}
	if len(ids) > 0 {
		o, err := h.app.Orders(ctx, ports.ListQuery{Limit: len(ids), Filters: []ports.Filter{
			{Property: "order.id", Expression: ports.ExprIn, Values: ids}}})
		if err != nil {
			return nil, nil, err
		}
		for _, x := range o.Items {
			shipped = append(shipped, lotOrder{ID: x.ID(), Number: x.Number(), Quantity: out[x.ID()]})
		}
	}
	for id, n := range in {
		po, err := h.app.PurchaseOrder(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		received = append(received, lotOrder{ID: id, Number: po.Number(), Quantity: n})
	}
	for _, list := range [][]lotOrder{shipped, received} {
		sort.Slice(list, func(i, j int) bool { return list[i].Number < list[j].Number })
	}
	return shipped, received, nil
}
