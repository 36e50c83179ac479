package console

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// ordersPerPage is the page size of the open orders.
const ordersPerPage = 50

// closed are the statuses of orders there is nothing left to do for.
var closed = []any{string(order.StatusCompletelyDelivered), string(order.StatusCompleted), string(order.StatusCancelled)}

type ordersData struct {
	Orders      []*order.Order
	Page, Pages int
	Total       int
}

type positionRow struct {
	Detail      *order.Detail
	Article     *catalog.ArticleDetail
	Outstanding int
	Returnable  int
	Form        *form
}

type orderData struct {
	Order      *order.Order
	Positions  []positionRow
	Warehouses []*warehouse.Warehouse
	DefaultWH  int64
	Ship       *form
	Picking    *form
	Return     *form
	Picks      []pickRow
	// Returnable is what the order's positions may still send back.
	Returnable int
	ReturnWH   int64
	Open       bool
	// ToShip is what the whole order still has to ship, Unreserved the part
	// of it no picking list holds yet.
	ToShip, Unreserved int
}

func (h *Handler) orderRoutes() {
	h.page("GET /console/orders", h.openOrders)
	h.page("GET /console/orders/{id}", h.showOrder)
	h.page("GET /console/orders/{id}/ship", h.confirmShip)
	h.action("POST /console/orders/{id}/ship", access.ShipOrders, h.shipOrder)
	h.action("POST /console/orders/{id}/positions/{detail}/ship", access.ShipOrders, h.shipPosition)
}
func (h *Handler) openOrders(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	d := ordersData{Page: 1}
	if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && p < 1_000_000 {
		d.Page = p
	}
	p, err := h.app.Orders(r.Context(), ports.ListQuery{Start: (d.Page - 1) * ordersPerPage, Limit: ordersPerPage,
		Filters: []ports.Filter{{Property: "order.status", Expression: ports.ExprNotIn, Values: closed}},
		Sorts:   []ports.Sort{{Property: "order.id"}}})
	if err != nil {
		return err
	}
	d.Orders, d.Total = p.Items, p.Total
	d.Pages = max(1, (p.Total+ordersPerPage-1)/ordersPerPage)
	h.render(w, r, http.StatusOK, "orders", view{Title: "Open orders", Nav: "orders", User: u, Data: d})
	return nil
}

func (h *Handler) showOrder(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	return h.orderPage(w, r, u, id, http.StatusOK, orderForms{})
}

// Shipping a whole order mails the customer, so the order page's
// button asks first: this page says what will happen, and only its
// form ships.
func (h *Handler) confirmShip(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	f := newForm()
	f.Values["warehouse"] = r.URL.Query().Get("warehouse")
	return h.shipConfirmPage(w, r, u, id, http.StatusOK, f)
}

// Shipping a whole order is idempotent by nature: an order with nothing
// left to ship is left alone.
func (h *Handler) shipOrder(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	f := postedForm(r)
	wh := f.id("warehouse", "the warehouse to ship from")
	if f.Val("confirmed") == "" {
		return h.shipConfirmPage(w, r, u, id, http.StatusOK, f)
	}
	if !f.Failed() {
		err := h.app.ShipOrder(r.Context(), application.OrderRef{ID: id}, &stock.WarehouseSpec{ID: wh}, false, u.Name)
		if errs.KindOf(err) == errs.Invalid {
			h.placeOrderError(r, f, id, err, "Nothing was shipped: %s.")
		} else if err != nil {
			return err
		}
	}
	if f.Failed() {
		f.Values["confirmed"] = ""
		return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{ship: f})
	}
	h.redirect(w, r, fmt.Sprintf("/console/orders/%d", id), "The order is shipped and the customer is mailed.")
	return nil
}

func (h *Handler) shipPosition(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	detail, err := pathID(r, "detail", "order position")
	if err != nil {
		return err
	}
	f := postedForm(r)
	if err := h.readBinLabelsIn(r, f, "warehouse", "bin"); err != nil {
		return err
	}
	// What a position still has to ship bounds its quantity: only a code
	// that landed in the box is told here.
	if _, err := h.entry(r.Context(), f, "quantity", stock.MaxQuantity, scanInto{bin: "bin"}); err != nil {
		return err
	}
	q := f.quantity("quantity", true)
	at := f.location("warehouse", "bin")
	if err := h.checkBin(r, f, "warehouse", "bin"); err != nil {
		return err
	}
	o, err := h.app.Order(r.Context(), application.OrderRef{ID: id})
	if err != nil {
		return err
	}
	if d, ok := o.Detail(detail); ok && q > o.Outstanding(d) {
		f.fail("quantity", fmt.Sprintf("Only %d still to ship.", o.Outstanding(d)))
	}
	if f.Failed() {
		return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{position: f, detail: detail})
	}
	run, err := h.shipDetail(r, u, f, application.DetailShipment{OperationID: []byte("1"), OrderDetailID: detail, Quantity: q, From: at})
	if err != nil {
		return err
	}
	if f.Failed() {
		return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{position: f.renew(), detail: detail})
	}
	h.redirect(w, r, fmt.Sprintf("/console/orders/%d", id), replayNotice(run, fmt.Sprintf("Shipped %d.", q)))
	return nil
}

// shipDetail ships one position through the batch engine under the
// form's key; a refusal goes beside the form's fields.
func (h *Handler) shipDetail(r *http.Request, u *application.ConsoleUser, f *form, shipment application.DetailShipment) (batchRun, error) {
	meta := application.BatchMeta{Key: f.Key, Endpoint: "orderDetails/ship",
		Fingerprint: f.fingerprint(fmt.Sprintf("console ship %d", shipment.OrderDetailID)), User: u.Name}
	out, err := h.app.ShipOrderDetails(r.Context(), meta, []application.DetailShipment{shipment}, renderResults)
	run, err := decodeRun(out, err)
	if err := formError(f, err); err != nil {
		return run, err
	}
	if !f.Failed() && !run.Results[0].Success {
		h.placeResult(r.Context(), f, run.Results[0], locationFields("", "warehouse", "bin").with(fields{"quantity": "quantity"}), "quantity")
	}
	return run, nil
}

// orderForms are the failed forms an order page shows again in their place.
type orderForms struct {
	ship     *form
	position *form
	detail   int64 // the position of position
	picking  *form
	ret      *form
}

// orderPage shows an order with its forms.
func (h *Handler) orderPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, posted orderForms) error {
	ctx := r.Context()
	o, err := h.app.Order(ctx, application.OrderRef{ID: id})
	if err != nil {
		return err
	}
	d := orderData{Order: o, Ship: newForm(), Picking: newForm(), Return: newForm(), Open: o.Status() != order.StatusCancelled}
	if d.Warehouses, err = h.warehouses(r); err != nil {
		return err
	}
	for _, wh := range d.Warehouses {
		if wh.IsDefault() {
			d.DefaultWH = wh.ID()
		}
		if wh.IsDefaultReturn() {
			d.ReturnWH = wh.ID()
		}
	}
	whValue := strconv.FormatInt(d.DefaultWH, 10)
	d.Ship.Values["warehouse"] = whValue
	d.Picking.Values["warehouse"] = whValue
	d.Return.Values["warehouse"] = strconv.FormatInt(d.ReturnWH, 10)
	d.Return.Values["restock"] = "1"
	if posted.ship != nil {
		d.Ship = posted.ship
	}
	if posted.picking != nil {
		d.Picking = posted.picking
	}
	if posted.ret != nil {
		d.Return = posted.ret
	}
	articles, err := h.articlesByID(r, o)
	if err != nil {
		return err
	}
	for _, det := range o.Details() {
		row := positionRow{Detail: det, Article: articles[det.ArticleDetailID()], Outstanding: o.Outstanding(det), Form: newForm(),
			Returnable: det.Returnable()}
		d.ToShip += row.Outstanding
		d.Returnable += row.Returnable
		row.Form.Values["warehouse"] = whValue
		row.Form.Values["quantity"] = strconv.Itoa(row.Outstanding)
		if posted.position != nil && det.ID() == posted.detail {
			row.Form = posted.position
		}
		d.Positions = append(d.Positions, row)
	}
	list, err := h.app.PickingListOf(ctx, application.OrderRef{ID: id})
	if err != nil {
		return err
	}
	d.Unreserved = d.ToShip
	for _, p := range list.Picks {
		d.Picks = append(d.Picks, pickRow{Pick: p, Article: articles[p.ArticleDetailID]})
		d.Unreserved -= p.Quantity
	}
	h.render(w, r, status, "order", view{Title: "Order " + o.Number(), Nav: "orders", User: u, Data: d})
	return nil
}

type shipConfirmData struct {
	Order     *order.Order
	Warehouse *warehouse.Warehouse
	Form      *form
	ToShip    int
	// Takes are the bins, products and lots the shipment would take from,
	// as the stock stands; Cannot says why it would not ship, when so.
	Takes  []takeRow
	Cannot string
}

// takeRow is one bin's part of a shipment, with its product.
type takeRow struct {
	application.PlannedTake
	Article *catalog.ArticleDetail
}

// shipConfirmPage asks before a whole order ships and its customer is
// mailed.
func (h *Handler) shipConfirmPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id int64, status int, f *form) error {
	o, err := h.app.Order(r.Context(), application.OrderRef{ID: id})
	if err != nil {
		return err
	}
	whID, err := strconv.ParseInt(f.Val("warehouse"), 10, 64)
	if err != nil || !limit.ValidID(whID) {
		return errs.NotFoundf("Choose the warehouse to ship from on the order's page.")
	}
	d := shipConfirmData{Order: o, Form: f}
	if d.Warehouse, err = h.app.Warehouse(r.Context(), whID); err != nil {
		return err
	}
	for _, det := range o.Details() {
		d.ToShip += o.Outstanding(det)
	}
	takes, err := h.app.ShipmentPreview(r.Context(), application.OrderRef{ID: id}, &stock.WarehouseSpec{ID: whID})
	switch {
	case errs.KindOf(err) == errs.Invalid || errs.KindOf(err) == errs.Conflict:
		preview := newForm()
		h.placeOrderError(r, preview, id, err, "It cannot ship now: %s.")
		d.Cannot = preview.Err("")
		if d.Cannot == "" {
			d.Cannot = preview.Err("warehouse")
		}
	case err != nil:
		return err
	}
	articles, err := h.articlesByID(r, o)
	if err != nil {
		return err
	}
	for _, t := range takes {
		d.Takes = append(d.Takes, takeRow{PlannedTake: t, Article: articles[t.ArticleDetailID]})
	}
	// The scan field keeps the focus: only the button, tapped, ships, and
	// a stray scan searches.
	h.render(w, r, status, "shipconfirm", view{Title: "Ship order " + o.Number() + "?", Nav: "orders", User: u, Data: d})
	return nil
}

// placeOrderError puts the error of a use case on a whole order (ship,
// reserve) on its form in the worker's words: the products whose stock
// does not suffice, by number, or what the rule says.
func (h *Handler) placeOrderError(r *http.Request, f *form, id int64, err error, format string) {
	e, _ := errs.As(err)
	if e == nil || len(e.Fields) == 0 {
		h.placeError(r.Context(), f, err, fields{"warehouse": "warehouse"}, "")
		return
	}
	o, oerr := h.app.Order(r.Context(), application.OrderRef{ID: id})
	if oerr != nil {
		f.fail("", messageOf(err))
		return
	}
	articles, _ := h.articlesByID(r, o)
	var short []string
	for _, fe := range e.Fields {
		d := detailAt(o, fe.Property)
		if d == nil {
			continue
		}
		name := fmt.Sprintf("position %d", d.ID())
		if a := articles[d.ArticleDetailID()]; a != nil {
			name = a.Number()
		}
		short = append(short, fmt.Sprintf("%s (%d to go)", name, o.Outstanding(d)))
	}
	if len(short) == 0 {
		f.fail("", messageOf(err))
		return
	}
	f.fail("", fmt.Sprintf(format, "this warehouse has not enough free stock of "+strings.Join(short, ", ")))
}

// detailAt is the position a property of an order names ("details[2]",
// "details[2].quantity"), nil when it names none.
func detailAt(o *order.Order, property string) *order.Detail {
	rest, ok := strings.CutPrefix(property, "details[")
	if !ok {
		return nil
	}
	i, err := strconv.Atoi(rest[:max(0, strings.IndexByte(rest, ']'))])
	if err != nil || i < 0 || i >= len(o.Details()) {
		return nil
	}
	return o.Details()[i]
}

// articlesByID reads the products of an order's positions in one list.
func (h *Handler) articlesByID(r *http.Request, o *order.Order) (map[int64]*catalog.ArticleDetail, error) {
	var ids []any
	for _, d := range o.Details() {
		ids = append(ids, d.ArticleDetailID())
	}
	out := map[int64]*catalog.ArticleDetail{}
	if len(ids) == 0 {
		return out, nil
	}
	p, err := h.app.ArticleDetails(r.Context(), ports.ListQuery{Limit: len(ids), Filters: []ports.Filter{
		{Property: "articleDetail.id", Expression: ports.ExprIn, Values: ids},
	}})
	for _, a := range p.Items {
		out[a.Article.ID()] = a.Article
	}
	return out, err
}
