package console

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

// The picking list of one order is also its scan flow, as a wave's page
// is: one pick at a time in walking order, its bin and product large, and
// one scan field with the focus. The bin's code first, then the product
// (number, EAN or GS1), which confirms one piece, or the quantity typed
// before it. Confirming a pick books nothing (shipping does), so what was
// picked lives in the page's address, as a count's tally does: every scan
// is a plain GET that redirects to the new state, and reload or Back never
// counts a piece twice. "Short" is a button in a form of its own, which no
// scan sends; it reserves the rest elsewhere and puts the bin up for a
// count. Once every pick is confirmed the page offers shipping, whose own
// page ships only at its button.

// pickState is what was picked of each pick of a list, by the pick's place
// in walking order, with the list's signature: a state read against a
// list that changed since counts for nothing.
type pickState struct {
	Signature string
	Picked    []int
}

// listSignature names a list by its picks' positions, bins and lots.
func listSignature(picks []order.Pick) string {
	h := fnv.New32a()
	for _, p := range picks {
		fmt.Fprintf(h, "%d:%d:%s\n", p.OrderDetailID, p.BinLocationID, p.LotNumber)
	}
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

// readPickState reads v and p ("2.0.1") against the list; changed tells
// that they were made on another list, or are unreadable, and were let go.
func readPickState(q url.Values, picks []order.Pick) (st pickState, changed bool) {
	st = pickState{Signature: listSignature(picks), Picked: make([]int, len(picks))}
	v, p := q.Get("v"), q.Get("p")
	if v == "" && p == "" {
		return st, false
	}
	parts := strings.Split(p, ".")
	if v != st.Signature || len(parts) != len(picks) {
		return st, true
	}
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || n > picks[i].Quantity {
			return pickState{Signature: st.Signature, Picked: make([]int, len(picks))}, true
		}
		st.Picked[i] = n
	}
	return st, false
}

func (st pickState) String() string {
	parts := make([]string, len(st.Picked))
	for i, n := range st.Picked {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ".")
}

// open is the first pick at or after at (then from the start) with
// pieces left, -1 when every pick is done.
func (st pickState) open(picks []order.Pick, at int) int {
	for k := range picks {
		i := (at + k) % len(picks)
		if st.Picked[i] < picks[i].Quantity {
			return i
		}
	}
	return -1
}

type pickKey struct {
	detail, bin int64
	lot         string
}

func keyOf(p order.Pick) pickKey { return pickKey{p.OrderDetailID, p.BinLocationID, p.LotNumber} }

// carried is the state of a list that replaced another: what was picked of
// a position on a bin and lot stays picked.
func (st pickState) carried(before, after []order.Pick) pickState {
	picked := map[pickKey]int{}
	for i, p := range before {
		picked[keyOf(p)] += st.Picked[i]
	}
	out := pickState{Signature: listSignature(after), Picked: make([]int, len(after))}
	for i, p := range after {
		n := min(picked[keyOf(p)], p.Quantity)
		out.Picked[i] = n
		picked[keyOf(p)] -= n
	}
	return out
}

// pickingURL is the address of the list at a state and a pick, with the
// bin scanned and the quantity typed, if any.
func pickingURL(id int64, st pickState, at int, bin bool, quantity string) string {
	q := url.Values{"v": {st.Signature}, "p": {st.String()}, "at": {strconv.Itoa(at)}}
	if bin {
		q.Set("bin", "1")
	}
	if quantity != "" {
		q.Set("quantity", quantity)
	}
	return fmt.Sprintf("/console/orders/%d/picking?%s", id, q.Encode())
}

// pickScan is one scan at a pick: the state after it, or the form with
// what went wrong.
type pickScan struct {
	id    int64
	picks []pickRow
	st    pickState
	at    int
	form  *form
}

// scanPick takes what the scan form sent at the pick shown: the bin, then
// the product; a quantity typed first waits for them. It answers with
// the address to go to and the notice to show there, or "" when the form
// comes back with its errors.
func (h *Handler) scanPick(r *http.Request, s pickScan) (to, notice string, err error) {
	f := s.form
	p := s.picks[s.at]
	left := p.Quantity - s.st.Picked[s.at]
	binScanned := f.Val("bin") != ""
	scanned, qty := f.Val("scan"), f.Val("quantity")
	if qty != "" && scanned == "" {
		// A code that landed in the quantity box is the scan it is.
		if _, _, kind := stock.ReadEntry(qty, stock.MaxQuantity); kind != stock.EntryQuantity {
			scanned, qty = qty, ""
			f.Values["quantity"] = ""
		}
	}
	if qty != "" {
		// What the pick has left bounds the quantity: only a code that
		// landed in the box is told here.
		if ok, err := h.entry(r.Context(), f, "quantity", stock.MaxQuantity, scanInto{}); err != nil || !ok {
			return "", "", err
		}
		n := f.quantity("quantity", true)
		if f.Failed() {
			return "", "", nil
		}
		if n > left {
			f.fail("quantity", fmt.Sprintf("Only %d left on this pick.", left))
			return "", "", nil
		}
	}
	if scanned == "" {
		return pickingURL(s.id, s.st, s.at, binScanned, qty), "", nil
	}
	t, err := h.app.ResolveScan(r.Context(), scanned)
	if err != nil {
		return "", "", err
	}
	if !binScanned {
		if scanned != p.BinLocationCode && !(t.Kind == application.ScanBinLocations && len(t.Bins) == 1 && t.Bins[0].ID == p.BinLocationID) {
			f.fail("scan", fmt.Sprintf("%q is not bin %s: scan the bin first.", scanned, p.BinLocationCode))
			return "", "", nil
		}
		return pickingURL(s.id, s.st, s.at, true, qty), "", nil
	}
	if scanned == p.BinLocationCode {
		// The bin scanned again: the product is still awaited.
		return pickingURL(s.id, s.st, s.at, true, qty), "", nil
	}
	if msg := pickMismatch(t, p); msg != "" {
		f.fail("scan", msg)
		return "", "", nil
	}
	n := 1
	if qty != "" {
		n, _ = strconv.Atoi(qty)
	}
	if n > left {
		f.fail("scan", fmt.Sprintf("Only %d left on this pick.", left))
		return "", "", nil
	}
	s.st.Picked[s.at] += n
	notice = fmt.Sprintf("Picked %d of %d × %s on %s.", s.st.Picked[s.at], p.Quantity, p.number(), p.BinLocationCode)
	at := s.at
	if s.st.Picked[s.at] == p.Quantity {
		notice += " The pick is done."
		if at = s.st.open(pickList(s.picks), s.at); at < 0 {
			at = 0
			notice += " Every pick is confirmed: the order is ready to ship."
		}
	}
	return pickingURL(s.id, s.st, at, false, ""), notice, nil
}

// pickMismatch says why a scan is not the pick's product (or lot), ""
// when it is.
func pickMismatch(t application.ScanTarget, p pickRow) string {
	wrong := fmt.Sprintf("That is not %s: scan the product on %s.", p.number(), p.BinLocationCode)
	switch t.Kind {
	case application.ScanProduct:
		if t.Product.ID == p.ArticleDetailID {
			return ""
		}
	case application.ScanGoods:
		if t.Product.ID != p.ArticleDetailID {
			return wrong
		}
		if t.Goods != nil && t.Goods.Lot != "" && p.LotNumber != "" && t.Goods.Lot != p.LotNumber {
			return fmt.Sprintf("That is another lot: take lot %s.", p.LotNumber)
		}
		return ""
	case application.ScanLot:
		if t.Lot.ParentID != p.ArticleDetailID {
			return wrong
		}
		if p.LotNumber != "" && t.Lot.Code != p.LotNumber {
			return fmt.Sprintf("That is another lot: take lot %s.", p.LotNumber)
		}
		return ""
	case application.ScanMalformed:
		return t.Problem
	}
	return wrong
}

func pickList(rows []pickRow) []order.Pick {
	out := make([]order.Pick, len(rows))
	for i, r := range rows {
		out[i] = r.Pick
	}
	return out
}

func (p pickRow) number() string {
	if p.Article != nil {
		return p.Article.Number()
	}
	return fmt.Sprintf("#%d", p.ArticleDetailID)
}

// shortPick says the shown pick's bin holds no more than was picked there.
func (h *Handler) shortPick(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "order")
	if err != nil {
		return err
	}
	list, err := h.app.PickingListOf(r.Context(), application.OrderRef{ID: id})
	if err != nil {
		return err
	}
	st, changed := readPickState(r.PostForm, list.Picks)
	at, aerr := strconv.Atoi(r.PostFormValue("at"))
	if changed || aerr != nil || at < 0 || at >= len(list.Picks) || st.Picked[at] >= list.Picks[at].Quantity {
		h.redirect(w, r, fmt.Sprintf("/console/orders/%d/picking", id), "The list had changed; look again before marking a pick short.")
		return nil
	}
	p := list.Picks[at]
	out, err := h.app.ShortPickOrder(r.Context(), application.OrderRef{ID: id}, application.OrderShort{
		OrderDetailID: p.OrderDetailID, BinLocationID: p.BinLocationID, Lot: p.LotNumber, Picked: st.Picked[at]})
	if errs.KindOf(err) == errs.Invalid {
		h.redirect(w, r, fmt.Sprintf("/console/orders/%d/picking", id), "The list had changed; look again before marking a pick short.")
		return nil
	}
	if err != nil {
		return err
	}
	next := st.carried(list.Picks, out.List.Picks)
	notice := fmt.Sprintf("%s is short; the bin is put up for a count.", out.BinCode)
	if out.Moved > 0 {
		notice += fmt.Sprintf(" %s reserved on other bins.", pieces(out.Moved))
	}
	if out.Missing > 0 {
		notice += fmt.Sprintf(" %s found nowhere: the order cannot ship whole.", pieces(out.Missing))
	}
	first := 0
	if len(out.List.Picks) > 0 {
		first = max(next.open(out.List.Picks, 0), 0)
	}
	h.redirect(w, r, pickingURL(id, next, first, false, ""), notice)
	return nil
}

// mayShort tells whether u may mark a pick short: a stock write and an
// order's.
func mayShort(u *application.ConsoleUser) bool {
	return u != nil && may(u, access.ManageOrders) && may(u, access.WriteStock)
}
