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
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

type pickRow struct {
	order.Pick
	Article *catalog.ArticleDetail
	// Index is the pick's place in walking order, Picked what was
	// confirmed of it.
	Index, Picked int
}

// Done tells whether every piece of the pick was confirmed.
func (p pickRow) Done() bool { return p.Picked >= p.Quantity }

type pickingData struct {
	Order *order.Order
	Picks []pickRow
	Total int
	// Lots: some pick names a lot, so the list has a lot column.
	Lots bool

	// Current is the pick shown to scan, nil once every pick is done.
	Current *pickRow
	// Next is the open pick after Current in walking order (the first
	// again after the last), -1 when Current is the only one.
	Next       int
	Done       int
	State      pickState
	BinScanned bool
	Scan       *form
	// Changed: the address held the state of a list that changed since.
	Changed bool
	// ShipFrom is the warehouse every pick lies in, 0 when they lie in
	// several; CanShip: the order has pieces to ship and the user may.
	ShipFrom int64
	CanShip  bool
	CanShort bool
}

func (h *Handler) pickingRoutes() {
	h.action("POST /console/orders/{id}/picking", access.ManageOrders, h.reservePicking)
	h.action("POST /console/orders/{id}/picking/release", access.ManageOrders, h.releasePicking)
	h.page("GET /console/orders/{id}/picking", h.pickingList)
	h.action("POST /console/orders/{id}/picking/short", access.ManageOrders, h.shortPick)
	h.action("POST /console/orders/{id}/returns", access.ManageOrders, h.recordReturn)
}

// Reserving is idempotent by nature: it reserves only what the
// positions still need.
func (h *Handler) reservePicking(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	f := postedForm(r)
	wh := f.id("warehouse", "the warehouse to pick from")
	if !f.Failed() {
		_, err := h.app.ReservePickingList(r.Context(), application.OrderRef{ID: id}, &stock.WarehouseSpec{ID: wh})
		if errs.KindOf(err) == errs.Invalid {
			h.placeOrderError(r, f, id, err, "Nothing was reserved: %s.")
		} else if err != nil {
			return err
		}
	}
	if f.Failed() {
		return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{picking: f})
	}
	h.redirect(w, r, fmt.Sprintf("/console/orders/%d/picking", id), "The picking list is reserved.")
	return nil
}

func (h *Handler) releasePicking(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	if _, err := h.app.ReleasePickingList(r.Context(), application.OrderRef{ID: id}); err != nil {
		return err
	}
	h.redirect(w, r, fmt.Sprintf("/console/orders/%d", id), "The reservations are released.")
	return nil
}

func (h *Handler) pickingList(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	o, err := h.app.Order(r.Context(), application.OrderRef{ID: id})
	if err != nil {
		return err
	}
	list, err := h.app.PickingListOf(r.Context(), application.OrderRef{ID: id})
	if err != nil {
		return err
	}
	articles, err := h.articlesByID(r, o)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	st, changed := readPickState(q, list.Picks)
	d := pickingData{Order: o, State: st, Changed: changed, Next: -1, Scan: newForm(), CanShort: mayShort(u)}
	for i, p := range list.Picks {
		d.Picks = append(d.Picks, pickRow{Pick: p, Article: articles[p.ArticleDetailID], Index: i, Picked: st.Picked[i]})
		d.Total += p.Quantity
		d.Lots = d.Lots || p.LotNumber != ""
		if st.Picked[i] >= p.Quantity {
			d.Done++
		}
		if i == 0 || d.ShipFrom == p.WarehouseID {
			d.ShipFrom = p.WarehouseID
		} else {
			d.ShipFrom = -1
		}
	}
	d.ShipFrom = max(d.ShipFrom, 0)
	for _, det := range o.Details() {
		d.CanShip = d.CanShip || o.Outstanding(det) > 0
	}
	d.CanShip = d.CanShip && u != nil && may(u, access.ShipOrders)
	at, _ := strconv.Atoi(q.Get("at"))
	if len(list.Picks) > 0 {
		at = max(min(at, len(list.Picks)-1), 0)
		if i := st.open(list.Picks, at); i >= 0 {
			d.Current = &d.Picks[i]
			if n := st.open(list.Picks, i+1); n != i {
				d.Next = n
			}
			d.BinScanned = q.Get("bin") != "" && i == at
		}
	}
	status := http.StatusOK
	if d.Current != nil && canAct(u) {
		d.Scan.Values["quantity"] = strings.TrimSpace(q.Get("quantity"))
		if d.BinScanned {
			d.Scan.Values["bin"] = "1"
		}
		d.Scan.Values["scan"] = strings.TrimSpace(q.Get("scan"))
		if d.Scan.Val("scan") != "" || d.Scan.Val("quantity") != "" && q.Get("typed") != "" {
			to, notice, err := h.scanPick(r, pickScan{id: id, picks: d.Picks, st: st, at: d.Current.Index, form: d.Scan})
			if err != nil {
				return err
			}
			if !d.Scan.Failed() {
				h.redirect(w, r, to, notice)
				return nil
			}
			status = http.StatusBadRequest
			d.Scan.Values["scan"] = ""
		}
	}
	// The scan field has the focus while a pick is open; then the search,
	// so that no scan ever ships.
	h.render(w, r, status, "picking", view{Title: "Picking list " + o.Number(), Nav: "orders", User: u, Focus: d.Current != nil && canAct(u), Data: d})
	return nil
}

func (h *Handler) recordReturn(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	f := postedForm(r)
	req, err := h.returnRequest(r, f, id)
	if err != nil {
		return err
	}
	if f.Failed() {
		return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{ret: f})
	}
	meta := application.BatchMeta{Key: f.Key, Endpoint: "console orders/returns",
		Fingerprint: f.fingerprint(fmt.Sprintf("return %d", id)), User: u.Name}
	out, err := h.app.ReturnOrder(r.Context(), meta, application.OrderRef{ID: id}, req, func(id int64) ([]byte, error) {
		return json.Marshal(id)
	})
	if err != nil {
		if errs.KindOf(err) == errs.Invalid {
			h.placeReturnError(r, f, id, req.Lines, err)
		} else if err := formError(f, err); err != nil {
			return err
		}
		return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{ret: f.renew()})
	}
	done := "The return is recorded."
	if out.Replayed {
		done = "This return had already been recorded; it was recorded once."
	}
	h.redirect(w, r, fmt.Sprintf("/console/orders/%d", id), done)
	return nil
}

// returnRequest reads the return form of order id: the pieces back per
// position (boxes ret_<detail id>, in position order), and where they go
// when restocked. What the order can take back is told with any other
// fault of the form, not after it is put right.
func (h *Handler) returnRequest(r *http.Request, f *form, id int64) (application.ReturnRequest, error) {
	var lines []order.ReturnLine
	for field, v := range f.Values {
		detail, err := strconv.ParseInt(strings.TrimPrefix(field, "ret_"), 10, 64)
		if !strings.HasPrefix(field, "ret_") || err != nil || detail <= 0 || v == "" || v == "0" {
			continue
		}
		// What a position can take back bounds its box: only a code that
		// landed there is told here.
		if ok, err := h.entry(r.Context(), f, field, stock.MaxQuantity, scanInto{bin: "bin"}); err != nil {
			return application.ReturnRequest{}, err
		} else if !ok {
			continue
		}
		if q := f.quantity(field, true); q > 0 {
			lines = append(lines, order.ReturnLine{OrderDetailID: detail, Quantity: q})
		}
	}
	if len(lines) == 0 && !f.Failed() {
		f.fail("", "Enter how many pieces of which position came back.")
	}
	o, err := h.app.Order(r.Context(), application.OrderRef{ID: id})
	if err != nil {
		return application.ReturnRequest{}, err
	}
	for _, l := range lines {
		if d, ok := o.Detail(l.OrderDetailID); ok && l.Quantity > d.Returnable() {
			f.fail(fmt.Sprintf("ret_%d", l.OrderDetailID), tooManyBack(d))
		}
	}
	sortReturnLines(lines)
	req := application.ReturnRequest{Lines: lines, Restock: f.Val("restock") != ""}
	if req.Restock {
		to := f.location("warehouse", "bin")
		req.To = &to
		if err := h.checkBin(r, f, "warehouse", "bin"); err != nil {
			return req, err
		}
	}
	return req, nil
}

func sortReturnLines(lines []order.ReturnLine) {
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j].OrderDetailID < lines[j-1].OrderDetailID; j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
}

// placeReturnError puts a refused return's errors beside the boxes of the
// positions they concern (the use case names them by their place among
// the lines), every one at once, in the worker's words.
func (h *Handler) placeReturnError(r *http.Request, f *form, id int64, lines []order.ReturnLine, err error) {
	e, _ := errs.As(err)
	o, oerr := h.app.Order(r.Context(), application.OrderRef{ID: id})
	if oerr != nil || len(e.Fields) == 0 {
		h.placeError(r.Context(), f, err, fields{"binLocation": "bin", "warehouse": "warehouse", "restock": "restock"}, "")
		return
	}
	for _, fe := range e.Fields {
		var i int
		if _, serr := fmt.Sscanf(fe.Property, "details[%d]", &i); serr != nil || i < 0 || i >= len(lines) {
			f.fail("", "This return cannot be recorded: "+fe.Message)
			continue
		}
		field := fmt.Sprintf("ret_%d", lines[i].OrderDetailID)
		d, ok := o.Detail(lines[i].OrderDetailID)
		switch {
		case !ok:
			f.fail(field, "This order has no such position.")
		case lines[i].Quantity > d.Returnable():
			f.fail(field, tooManyBack(d))
		default:
			f.fail(field, "Enter a quantity of at least 1.")
		}
	}
}

func tooManyBack(d *order.Detail) string {
	return fmt.Sprintf("At most %d can come back: %d shipped, %d already returned.", d.Returnable(), d.Shipped(), d.Returned())
}
