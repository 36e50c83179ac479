package console

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// The count page: a count's bins, and for one bin what the worker found
// there, scanned piece by piece. The tally of a bin being counted lives in
// the page's address (t), so that every scan is a plain GET that redirects
// to the new tally: nothing is stored until the worker confirms the bin,
// and reload or Back never adds a piece twice.

// maxTally bounds the products and lots one bin's tally holds.
const maxTally = 1000

type tallyKey struct {
	Article int64
	Lot     string
}

// tally is what was scanned so far on a bin.
type tally map[tallyKey]int

// parseTally reads t: "article[.lot in hex]:quantity", comma-separated.
func parseTally(s string) (tally, bool) {
	t := tally{}
	if s == "" {
		return t, true
	}
	parts := strings.Split(s, ",")
	if len(parts) > maxTally {
		return nil, false
	}
	for _, p := range parts {
		k, n, ok := strings.Cut(p, ":")
		if !ok {
			return nil, false
		}
		id, lotHex, byLot := strings.Cut(k, ".")
		article, err := strconv.ParseInt(id, 10, 64)
		q, qerr := strconv.Atoi(n)
		if err != nil || article <= 0 || qerr != nil || q < 0 || q > 1_000_000_000 {
			return nil, false
		}
		key := tallyKey{Article: article}
		if byLot {
			raw, err := hex.DecodeString(lotHex)
			if err != nil || len(raw) == 0 {
				return nil, false
			}
			key.Lot = string(raw)
		}
		t[key] = q
	}
	return t, true
}

func (t tally) keys() []tallyKey {
	keys := make([]tallyKey, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b tallyKey) int {
		if a.Article != b.Article {
			return int(a.Article - b.Article)
		}
		return strings.Compare(a.Lot, b.Lot)
	})
	return keys
}

func (t tally) String() string {
	var parts []string
	for _, k := range t.keys() {
		p := strconv.FormatInt(k.Article, 10)
		if k.Lot != "" {
			p += "." + hex.EncodeToString([]byte(k.Lot))
		}
		parts = append(parts, p+":"+strconv.Itoa(t[k]))
	}
	return strings.Join(parts, ",")
}

type countPage struct {
	Count *count.Count
	// Books: the count shows what the books expected (not while a blind
	// count is open).
	Books bool
	Open  bool
	Bins  []count.Bin
	// Bin is the bin being counted, nil on the count's own page.
	Bin *count.Bin
	// Lines are the bin's products: expected and what was scanned.
	Lines []countLine
	Tally string
	Total int
	// Scan is the scan form, Confirm the bin's confirmation, Bins the
	// count's own page's forms.
	Scan, Confirm, Act *form
}

type countLine struct {
	Article  int64
	Number   string
	Lot      string
	Expected int
	Scanned  int
}

func (h *Handler) countRoutes() {
	h.page("GET /console/counts/{id}", h.showCount)
	h.page("GET /console/counts/{id}/scan", h.scanCountBin)
	h.page("GET /console/counts/{id}/bins/{bin}", h.showCountBin)
	h.action("POST /console/counts/{id}/bins/{bin}", access.WriteStock, h.confirmCountBin)
	h.action("POST /console/counts/{id}/apply", access.WriteStock, h.applyCount)
	h.action("POST /console/counts/{id}/cancel", access.WriteStock, h.cancelCount)
	h.action("POST /console/bins/{id}/count", access.WriteStock, h.startBinCount)
}

// startBinCount opens a count of the bin, or goes to the open count that
// covers it.
func (h *Handler) startBinCount(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	bin, err := pathID(r, "id", "bin location")
	if err != nil {
		return err
	}
	b, err := h.app.BinLocation(r.Context(), bin)
	if err != nil {
		return err
	}
	id, err := h.app.CreateCount(r.Context(), application.CountRequest{Warehouse: stock.WarehouseSpec{ID: b.BinLocation.WarehouseID()},
		BinLocations: []stock.BinLocationSpec{{ID: bin}}, BinsGiven: true})
	if e, ok := errs.As(err); ok && e.Code == count.BinOpenElsewhere {
		if id, err = h.app.OpenCountOn(r.Context(), bin); err == nil && id == 0 {
			err = e
		}
	}
	if err != nil {
		return err
	}
	h.redirect(w, r, fmt.Sprintf("/console/counts/%d/bins/%d", id, bin), "")
	return nil
}

func (h *Handler) showCount(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	return h.countOverview(w, r, u, http.StatusOK, newForm())
}

func (h *Handler) countOverview(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, status int, f *form) error {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return err
	}
	v, err := h.app.Count(r.Context(), id)
	if err != nil {
		return err
	}
	d := countPage{Count: v.Count, Books: v.ShowsBooks(), Open: v.Status() == count.Open, Bins: v.Bins(), Act: f, Scan: newForm()}
	h.render(w, r, status, "count", view{Title: fmt.Sprintf("Count %d", id), Nav: "warehouses", User: u, Focus: d.Open && canAct(u), Data: d})
	return nil
}

// scanCountBin opens the bin scanned, among the count's bins.
func (h *Handler) scanCountBin(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return err
	}
	v, err := h.app.Count(r.Context(), id)
	if err != nil {
		return err
	}
	scanned := strings.TrimSpace(r.URL.Query().Get("bin"))
	if strings.Contains(scanned, warehouse.LabelSeparator) {
		if code, err := h.labelledBinCode(r, scanned, v.WarehouseID()); err != nil {
			return err
		} else if code != "" {
			scanned = code
		}
	}
	for _, b := range v.Bins() {
		if b.Code == scanned || binName(b.Code) == scanned {
			http.Redirect(w, r, fmt.Sprintf("/console/counts/%d/bins/%d", id, b.BinLocationID), http.StatusSeeOther)
			return nil
		}
	}
	f := newForm()
	f.Values["bin"] = scanned
	f.fail("bin", fmt.Sprintf("%q is not a bin of this count.", scanned))
	return h.countOverview(w, r, u, http.StatusBadRequest, f)
}

func (h *Handler) countBinIDs(r *http.Request) (int64, int64, error) {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return 0, 0, err
	}
	bin, err := pathID(r, "bin", "bin location")
	return id, bin, err
}

// showCountBin shows a bin being counted; with a scan it adds the piece(s)
// to the tally and redirects to the new tally.
func (h *Handler) showCountBin(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, bin, err := h.countBinIDs(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	t, ok := parseTally(q.Get("t"))
	if !ok {
		return errs.Invalidf("the tally of this bin is not readable: start the bin again")
	}
	scan := newForm()
	if text := strings.TrimSpace(q.Get("scan")); text != "" {
		scan.Values["scan"], scan.Values["qty"] = text, strings.TrimSpace(q.Get("qty"))
		if h.addScan(r, scan, t) {
			to := fmt.Sprintf("/console/counts/%d/bins/%d?t=%s", id, bin, url.QueryEscape(t.String()))
			http.Redirect(w, r, to, http.StatusSeeOther)
			return nil
		}
		scan.Values["scan"] = ""
		return h.countBinPage(w, r, u, id, bin, t, http.StatusBadRequest, scan, newForm())
	}
	if qty := strings.TrimSpace(q.Get("qty")); qty != "" {
		// A quantity typed first (its Enter sends the form): it waits
		// for the scan that follows. What may be a code scanned into the
		// box is taken as the scan it is, or refused: never a tally of
		// millions.
		scan.Values["qty"] = qty
		if _, _, kind := stock.ReadEntry(qty, 0); kind != stock.EntryQuantity {
			scan.Values["scan"], scan.Values["qty"] = qty, ""
			if h.addScan(r, scan, t) {
				to := fmt.Sprintf("/console/counts/%d/bins/%d?t=%s", id, bin, url.QueryEscape(t.String()))
				http.Redirect(w, r, to, http.StatusSeeOther)
				return nil
			}
			scan = newForm()
			scan.fail("qty", fmt.Sprintf("%s is no number of pieces a bin plausibly holds, and names no product. Type the pieces again, or scan the product.", qty))
			return h.countBinPage(w, r, u, id, bin, t, http.StatusBadRequest, scan, newForm())
		}
		if n, err := strconv.Atoi(qty); err != nil || n < 0 {
			scan.fail("qty", "Type a whole number of pieces, or leave it empty for one.")
			return h.countBinPage(w, r, u, id, bin, t, http.StatusBadRequest, scan, newForm())
		}
	}
	return h.countBinPage(w, r, u, id, bin, t, http.StatusOK, scan, newForm())
}

// addScan adds what a scan names to the tally: one piece, or the typed
// quantity; it tells whether it did.
func (h *Handler) addScan(r *http.Request, f *form, t tally) bool {
	n := 1
	if raw := f.Val("qty"); raw != "" {
		q, err := strconv.Atoi(raw)
		if err != nil || q < 0 {
			f.fail("qty", "Type a whole number of pieces, or leave it empty for one.")
			return false
		}
		if _, _, kind := stock.ReadEntry(raw, 0); kind != stock.EntryQuantity {
			f.Values["qty"] = ""
			f.fail("qty", fmt.Sprintf("%s is no number of pieces a bin plausibly holds: type the pieces again.", raw))
			return false
		}
		n = q
	}
	target, err := h.app.ResolveScan(r.Context(), f.Val("scan"))
	if err != nil {
		f.fail("scan", h.say(r.Context(), failureOf(err)))
		return false
	}
	var key tallyKey
	switch {
	case target.Kind == application.ScanProduct && target.Product != nil:
		key.Article = target.Product.ID
	case target.Kind == application.ScanGoods && target.Product != nil && target.Goods != nil:
		key.Article, key.Lot = target.Product.ID, target.Goods.Lot
	case target.Kind == application.ScanLot && target.Lot != nil:
		key.Article, key.Lot = target.Lot.ParentID, target.Lot.Code
	default:
		msg := fmt.Sprintf("%q names no product. Scan the product's number, EAN or GS1 code.", f.Val("scan"))
		if target.Problem != "" {
			msg = target.Problem
		}
		f.fail("scan", msg)
		return false
	}
	if _, known := t[key]; !known && len(t) >= maxTally {
		f.fail("scan", fmt.Sprintf("A bin takes at most %d products and lots.", maxTally))
		return false
	}
	t[key] = min(t[key]+n, 1_000_000_000)
	return true
}

func (h *Handler) countBinPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id, bin int64, t tally, status int, scan, confirm *form) error {
	v, err := h.app.Count(r.Context(), id)
	if err != nil {
		return err
	}
	d := countPage{Count: v.Count, Books: v.ShowsBooks(), Open: v.Status() == count.Open, Tally: t.String(), Scan: scan, Confirm: confirm}
	for _, b := range v.Bins() {
		if b.BinLocationID == bin {
			d.Bin = &b
		}
	}
	if d.Bin == nil {
		return errs.NotFoundf("count %d does not cover bin location %d", id, bin)
	}
	lines := map[tallyKey]*countLine{}
	var order []tallyKey
	add := func(k tallyKey) *countLine {
		if l := lines[k]; l != nil {
			return l
		}
		lines[k] = &countLine{Article: k.Article, Lot: k.Lot}
		order = append(order, k)
		return lines[k]
	}
	for _, e := range d.Bin.Snapshot {
		add(tallyKey{e.ArticleDetailID, e.Lot}).Expected = e.Stock
	}
	for _, k := range t.keys() {
		add(k).Scanned = t[k]
		d.Total += t[k]
	}
	numbers, err := h.articleNumbers(r, order)
	if err != nil {
		return err
	}
	for _, k := range order {
		l := lines[k]
		l.Number = numbers[k.Article]
		d.Lines = append(d.Lines, *l)
	}
	title := fmt.Sprintf("Count %d · bin %s", id, binName(d.Bin.Code))
	h.render(w, r, status, "count", view{Title: title, Nav: "warehouses", User: u, Focus: d.Open && canAct(u), Data: d})
	return nil
}

// articleNumbers names the products of the lines.
func (h *Handler) articleNumbers(r *http.Request, keys []tallyKey) (map[int64]string, error) {
	out := map[int64]string{}
	var ids []any
	for _, k := range keys {
		if _, seen := out[k.Article]; !seen {
			out[k.Article] = fmt.Sprintf("#%d", k.Article)
			ids = append(ids, k.Article)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	p, err := h.app.ArticleDetails(r.Context(), ports.ListQuery{Limit: len(ids), Filters: []ports.Filter{
		{Property: "articleDetail.id", Expression: ports.ExprIn, Values: ids}}})
	if err != nil {
		return nil, err
	}
	for _, a := range p.Items {
		out[a.Article.ID()] = a.Article.Number()
	}
	return out, nil
}

// confirmCountBin records the tally as what was found on the bin.
func (h *Handler) confirmCountBin(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, bin, err := h.countBinIDs(r)
	if err != nil {
		return err
	}
	f := postedForm(r)
	t, ok := parseTally(f.Val("t"))
	if !ok {
		return errs.Invalidf("the tally of this bin is not readable: start the bin again")
	}
	var lines []count.Line
	for _, k := range t.keys() {
		lines = append(lines, count.Line{ArticleDetailID: k.Article, Lot: k.Lot, Quantity: t[k]})
	}
	err = h.app.CountBin(r.Context(), id, bin, lines)
	if e, ok := errs.As(err); ok && e.Kind == errs.Invalid {
		msg := e.Message
		if len(e.Fields) > 0 {
			msg = e.Fields[0].Message
		}
		f.fail("", msg)
		return h.countBinPage(w, r, u, id, bin, t, http.StatusBadRequest, newForm(), f.renew())
	}
	if err != nil {
		return err
	}
	h.redirect(w, r, fmt.Sprintf("/console/counts/%d", id), binCounted(len(lines), t))
	return nil
}

func binCounted(products int, t tally) string {
	n := 0
	for _, q := range t {
		n += q
	}
	return fmt.Sprintf("Bin counted: %d pieces of %d products and lots.", n, products)
}

func (h *Handler) applyCount(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return err
	}
	f := postedForm(r)
	meta := application.BatchMeta{Key: "console-" + f.Key, Endpoint: fmt.Sprintf("POST /api/counts/%d/apply", id), Fingerprint: f.fingerprint("counts/apply"), User: u.Name}
	var released int
	_, err = h.app.ApplyCount(r.Context(), meta, id, func(a application.CountApplied) ([]byte, error) {
		released = len(a.Released)
		return []byte("{}"), nil
	})
	if errs.KindOf(err) == errs.Invalid {
		f.fail("", messageOf(err))
		return h.countOverview(w, r, u, http.StatusBadRequest, f.renew())
	}
	if err != nil {
		return err
	}
	notice := "Count applied: the books now say what was found."
	if released > 0 {
		notice += fmt.Sprintf(" %d reservations were released.", released)
	}
	h.redirect(w, r, fmt.Sprintf("/console/counts/%d", id), notice)
	return nil
}

func (h *Handler) cancelCount(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "count")
	if err != nil {
		return err
	}
	if err := h.app.CancelCount(r.Context(), id); errs.KindOf(err) == errs.Invalid {
		f := postedForm(r)
		f.fail("", messageOf(err))
		return h.countOverview(w, r, u, http.StatusBadRequest, f.renew())
	} else if err != nil {
		return err
	}
	h.redirect(w, r, fmt.Sprintf("/console/counts/%d", id), "Count cancelled: nothing was booked.")
	return nil
}
