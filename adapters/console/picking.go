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
}

type pickingData struct {
	Order *order.Order
	Picks []pickRow
	Total int
}

func (h *Handler) pickingRoutes() {
	// Reserving is idempotent by nature: it reserves only what the
	// positions still need.
	h.action("POST /console/orders/{id}/picking", access.ManageOrders, func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "order")
		if err != nil {
			return err
		}
		f := postedForm(r)
		wh := f.id("warehouse", "the warehouse to pick from")
		if !f.Failed() {
			_, err := h.app.ReservePickingList(r.Context(), application.OrderRef{ID: id}, &stock.WarehouseSpec{ID: wh})
			if errs.KindOf(err) == errs.Invalid {
				f.fail("", messageOf(err))
			} else if err != nil {
				return err
			}
		}
		if f.Failed() {
			return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{picking: f})
		}
		h.redirect(w, r, fmt.Sprintf("/console/orders/%d/picking", id), "The picking list is reserved.")
		return nil
	})
	h.action("POST /console/orders/{id}/picking/release", access.ManageOrders, func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "order")
		if err != nil {
			return err
		}
		if _, err := h.app.ReleasePickingList(r.Context(), application.OrderRef{ID: id}); err != nil {
			return err
		}
		h.redirect(w, r, fmt.Sprintf("/console/orders/%d", id), "The reservations are released.")
		return nil
	})
	h.page("GET /console/orders/{id}/picking", func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
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
		d := pickingData{Order: o}
		for _, p := range list.Picks {
			d.Picks = append(d.Picks, pickRow{Pick: p, Article: articles[p.ArticleDetailID]})
			d.Total += p.Quantity
		}
		h.render(w, r, http.StatusOK, "picking", view{Title: "Picking list " + o.Number(), Nav: "orders", User: u, Data: d})
		return nil
	})
	h.action("POST /console/orders/{id}/returns", access.ManageOrders, func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
		id, err := pathID(r, "id", "order")
		if err != nil {
			return err
		}
		f := postedForm(r)
		var lines []order.ReturnLine
		for field, v := range f.Values {
			detail, err := strconv.ParseInt(strings.TrimPrefix(field, "ret_"), 10, 64)
			if !strings.HasPrefix(field, "ret_") || err != nil || detail <= 0 || v == "" || v == "0" {
				continue
			}
			if q := f.quantity(field, true); q > 0 {
				lines = append(lines, order.ReturnLine{OrderDetailID: detail, Quantity: q})
			}
		}
		if len(lines) == 0 && !f.Failed() {
			f.fail("", "Enter how many pieces of which position came back.")
		}
		req := application.ReturnRequest{Lines: lines, Restock: f.Val("restock") != ""}
		if req.Restock {
			to := f.location("warehouse", "bin")
			req.To = &to
		}
		if f.Failed() {
			return h.orderPage(w, r, u, id, http.StatusBadRequest, orderForms{ret: f})
		}
		sortReturnLines(lines)
		meta := application.BatchMeta{Key: f.Key, Endpoint: "console orders/returns",
			Fingerprint: f.fingerprint(fmt.Sprintf("return %d", id)), User: u.Name}
		out, err := h.app.ReturnOrder(r.Context(), meta, application.OrderRef{ID: id}, req, func(id int64) ([]byte, error) {
			return json.Marshal(id)
		})
		if err != nil {
			if err := formError(f, err); err != nil {
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
	})
}

func sortReturnLines(lines []order.ReturnLine) {
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j].OrderDetailID < lines[j-1].OrderDetailID; j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
}
