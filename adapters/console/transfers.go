package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

// The transfer pages: the transfers under way, and for one of them its
// lines with what was shipped, received and is on the road, seen from
// either end: at the source a form that ships by scanning the bin and the
// product, at the destination one that receives by scanning the product.

// running are the statuses of transfers that still ship or receive.
var running = []any{string(transfer.Open), string(transfer.InTransit), string(transfer.PartiallyReceived)}

// The ends of a transfer a page shows it from.
const (
	atSource      = "ship"
	atDestination = "receive"
)

type transfersData struct {
	Transfers   []transferRow
	Page, Pages int
	Total       int
}

type transferRow struct {
	Transfer               *transfer.Transfer
	Source, Destination    string
	LeftToShip, InTransit  int
	Quantity, Received     int
	CanShip, CanBeReceived bool
}

func rowOf(t *transfer.Transfer, codes map[int64]string) transferRow {
	row := transferRow{Transfer: t, Source: codes[t.SourceWarehouseID()], Destination: codes[t.DestinationWarehouseID()]}
	for _, l := range t.Lines() {
		row.LeftToShip += t.LeftToShip(l)
		row.InTransit += l.InTransit()
		row.Quantity += l.Quantity()
		row.Received += l.Received()
	}
	row.CanShip, row.CanBeReceived = row.LeftToShip > 0, row.InTransit > 0 && t.Status().Running()
	return row
}

type transferLineRow struct {
	Line       *transfer.Line
	Article    *catalog.ArticleDetail
	LeftToShip int
	// Lots are the lots on the road, "" for a product that is not
	// lot-tracked: "L1 (3)".
	Lots string
}

type transferData struct {
	transferRow
	// End is atSource or atDestination, "" for the page that shows the
	// transfer from neither.
	End   string
	Lines []transferLineRow
	Form  *form
	// AskLot tells whether the receive form asks for the lot: only while a
	// line has pieces of several lots on the road, or the form names one.
	AskLot bool
}

// transferFields are the properties of a one-line shipment or receipt and
// the fields of the forms that hold them.
var transferFields = fields{
	"lines[0].quantity":    "quantity",
	"lines[0].binLocation": "bin",
	"lines[0].lineId":      "product",
	"lines[0].lot":         "lot",
	"lines":                "product",
	"status":               "",
}

func (h *Handler) transferRoutes() {
	h.page("GET /console/transfers", h.runningTransfers)
	h.page("GET /console/transfers/{id}", h.showTransfer)
	h.page("GET /console/transfers/{id}/ship", h.showTransfer)
	h.page("GET /console/transfers/{id}/receive", h.showTransfer)
	h.action("POST /console/transfers/{id}/ship", access.ManageTransfers, h.moveTransfer)
	h.action("POST /console/transfers/{id}/receive", access.ManageTransfers, h.moveTransfer)
}

func (h *Handler) runningTransfers(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	d := transfersData{Page: 1}
	if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && p < 1_000_000 {
		d.Page = p
	}
	p, err := h.app.Transfers(r.Context(), ports.ListQuery{Start: (d.Page - 1) * ordersPerPage, Limit: ordersPerPage,
		Filters: []ports.Filter{{Property: "transfer.status", Expression: ports.ExprIn, Values: running}}})
	if err != nil {
		return err
	}
	codes, err := h.warehouseCodes(r)
	if err != nil {
		return err
	}
	for _, t := range p.Items {
		d.Transfers = append(d.Transfers, rowOf(t, codes))
	}
	d.Total = p.Total
	d.Pages = max(1, (p.Total+ordersPerPage-1)/ordersPerPage)
	h.render(w, r, http.StatusOK, "transfers", view{Title: "Transfers", Nav: "transfers", User: u, Data: d})
	return nil
}

// endOf is the end of the transfer a path shows it from.
func endOf(r *http.Request) string {
	switch {
	case strings.HasSuffix(r.URL.Path, "/"+atSource):
		return atSource
	case strings.HasSuffix(r.URL.Path, "/"+atDestination):
		return atDestination
	}
	return ""
}

func (h *Handler) showTransfer(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "transfer")
	if err != nil {
		return err
	}
	return h.transferPage(w, r, u, id, http.StatusOK, newForm())
}

// moveTransfer ships (at the source) or receives (at the destination) the
// pieces of one line the form names; what the service refuses is put
// beside the form's fields.
func (h *Handler) moveTransfer(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "transfer")
	if err != nil {
		return err
	}
	end := endOf(r)
	t, err := h.app.Transfer(r.Context(), id)
	if err != nil {
		return err
	}
	f := postedForm(r)
	rows, err := h.transferLines(r, t)
	if err != nil {
		return err
	}
	// What a line still has to ship or has on the road bounds the
	// quantity: only a code that landed in the box is told here.
	entered, err := h.entry(r.Context(), f, "quantity", stock.MaxQuantity, scanInto{bin: "bin"})
	if err != nil {
		return err
	}
	chosen := chooseTransferLine(f, t, rows, end)
	var q int
	if entered {
		q = f.quantity("quantity", true)
	}
	if chosen == nil || f.Failed() {
		return h.transferPage(w, r, u, id, http.StatusBadRequest, f)
	}
	var bin *stock.LocationSpec
	warehouse := t.SourceWarehouseID()
	if end == atDestination {
		warehouse = t.DestinationWarehouseID()
	}
	if err := h.readBinLabels(r, f, warehouse, "bin"); err != nil {
		return err
	}
	if code := f.Val("bin"); code != "" {
		bin = &stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: code, WarehouseID: warehouse}}
	}
	meta := application.BatchMeta{Key: f.Key, Endpoint: "console transfers/" + end,
		Fingerprint: f.fingerprint(fmt.Sprintf("console %s transfer %d", end, id)), User: u.Name}
	render := func(movementID int64) ([]byte, error) { return json.Marshal(movementID) }
	var out application.BatchOutcome
	if end == atSource {
		out, err = h.app.ShipTransfer(r.Context(), meta, id, []transfer.ShipmentLine{{LineID: chosen.Line.ID(), Quantity: q, From: bin}}, render)
	} else {
		line := transfer.ReceiptLine{LineID: chosen.Line.ID(), Quantity: q, At: bin}
		if lot := f.Val("lot"); lot != "" {
			line.Lot = &stock.LotSpec{Number: lot}
		}
		out, err = h.app.ReceiveTransfer(r.Context(), meta, id, []transfer.ReceiptLine{line}, render)
	}
	switch {
	case err == nil:
	case errs.KindOf(err) == errs.Invalid:
		f.place(transferMessage(err), errs.PropertyOf(err), transferFields, "quantity")
		return h.transferPage(w, r, u, id, http.StatusBadRequest, f.renew())
	case errs.KindOf(err) == errs.Conflict:
		_ = formError(f, err)
		return h.transferPage(w, r, u, id, http.StatusBadRequest, f.renew())
	default:
		return err
	}
	t, err = h.app.Transfer(r.Context(), id)
	if err != nil {
		return err
	}
	l, _ := t.Line(chosen.Line.ID())
	number := "the product"
	if chosen.Article != nil {
		number = chosen.Article.Number()
	}
	notice := fmt.Sprintf("Shipped %d × %s; %d left to ship on this line.", q, number, t.LeftToShip(l))
	if end == atDestination {
		notice = fmt.Sprintf("Received %d × %s; %d still on the road on this line.", q, number, l.InTransit())
	}
	if t.Status() == transfer.Completed {
		notice += " The transfer is complete."
	}
	if out.Replayed {
		notice = "This form had already been submitted; it was applied once. " + notice
	}
	h.redirect(w, r, fmt.Sprintf("/console/transfers/%d/%s", id, end), notice)
	return nil
}

// chooseTransferLine finds the line of the product the form names: at
// the source the first with something left to ship, at the destination
// the first with something on the road (a product on two lines of
// different lots). It puts an error beside the product when there is
// none.
func chooseTransferLine(f *form, t *transfer.Transfer, rows []transferLineRow, end string) *transferLineRow {
	product := f.Val("product")
	if product == "" {
		f.fail("product", "Scan or type a product number.")
		return nil
	}
	var found *transferLineRow
	for _, exact := range []bool{true, false} {
		for i := range rows {
			a := rows[i].Article
			if a == nil || !(a.Number() == product || (!exact && strings.EqualFold(a.Number(), product))) {
				continue
			}
			if found == nil {
				found = &rows[i]
			}
			if (end == atSource && rows[i].LeftToShip > 0) || (end == atDestination && rows[i].Line.InTransit() > 0) {
				return &rows[i]
			}
		}
		if found != nil {
			return found
		}
	}
	f.fail("product", fmt.Sprintf("%s is not on this transfer.", product))
	return nil
}

// transferLines are the transfer's lines with their products.
func (h *Handler) transferLines(r *http.Request, t *transfer.Transfer) ([]transferLineRow, error) {
	var ids []any
	for _, l := range t.Lines() {
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
	rows := make([]transferLineRow, 0, len(ids))
	for _, l := range t.Lines() {
		row := transferLineRow{Line: l, Article: articles[l.ArticleDetailID()], LeftToShip: t.LeftToShip(l)}
		var lots []string
		for _, lot := range l.Lots() {
			if lot.Number != "" && lot.InTransit() > 0 {
				lots = append(lots, fmt.Sprintf("%s (%d)", lot.Number, lot.InTransit()))
			}
		}
		row.Lots = strings.Join(lots, ", ")
		rows = append(rows, row)
	}
	return rows, nil
}

// transferPage shows one transfer with its lines, and the form of its end.
func (h *Handler) transferPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, f *form) error {
	t, err := h.app.Transfer(r.Context(), id)
	if err != nil {
		return err
	}
	codes, err := h.warehouseCodes(r)
	if err != nil {
		return err
	}
	d := transferData{transferRow: rowOf(t, codes), End: endOf(r), Form: f}
	if d.Lines, err = h.transferLines(r, t); err != nil {
		return err
	}
	d.AskLot = f.Val("lot") != "" || f.Err("lot") != ""
	for _, l := range d.Lines {
		d.AskLot = d.AskLot || strings.Contains(l.Lots, ", ")
	}
	title := "Transfer " + t.Number()
	switch d.End {
	case atSource:
		title = "Ship " + t.Number()
	case atDestination:
		title = "Receive " + t.Number()
	}
	h.render(w, r, status, "transfer", view{Title: title, Nav: "transfers", User: u, Focus: d.End != "" && u != nil && may(u, access.ManageTransfers), Data: d})
	return nil
}

// CanTransfer tells whether the signed-in user may ship and receive
// transfers.
func (v view) CanTransfer() bool { return v.User != nil && may(v.User, access.ManageTransfers) }

// transferMessage is what a refused shipment or receipt says: the message
// of its one field at fault, else the whole message.
func transferMessage(err error) string {
	if e, ok := errs.As(err); ok && len(e.Fields) == 1 {
		return e.Fields[0].Message
	}
	return messageOf(err)
}
