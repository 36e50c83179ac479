package console

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/domain/wave"
	"github.com/shopstock/inventory/ports"
)

// The picking wave pages: the waves, and for one of them a page for a
// phone in the picker's hand that shows one task at a time in walking
// order. Its one field takes every scan: first the bin, then the product,
// which confirms one piece (or the quantity typed before it). "Short" is
// a button in a form of its own, so no scan can ever send it.

type wavesData struct {
	Waves []waveRow
}

type waveRow struct {
	Wave     *wave.Wave
	Progress wave.Progress
	Done     int
}

type waveData struct {
	Wave     *wave.Wave
	Progress wave.Progress
	Done     int
	// Task is the task shown, nil when none is left open.
	Task *wave.Task
	Left int
	// Next is the open task after Task in walking order (the first again
	// after the last), 0 when Task is the only one.
	Next int64
	Scan *form
	// BinScanned: the bin was scanned, the product is next.
	BinScanned bool
	Short      []wave.Short
}

func (h *Handler) waveRoutes() {
	h.page("GET /console/waves", h.waves)
	h.page("GET /console/waves/{id}", h.showWave)
	h.action("POST /console/waves/{id}/scan", access.ManageOrders, h.scanWave)
	h.action("POST /console/waves/{id}/short", access.ManageOrders, h.shortWave)
}

func (h *Handler) waves(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	p, err := h.app.Waves(r.Context(), ports.ListQuery{Limit: 50, Sorts: []ports.Sort{{Property: "pickingWave.id", Descending: true}}})
	if err != nil {
		return err
	}
	var d wavesData
	for _, wv := range p.Items {
		pr := wv.Progress()
		d.Waves = append(d.Waves, waveRow{Wave: wv, Progress: pr, Done: pr.Picked + pr.Short})
	}
	h.render(w, r, http.StatusOK, "waves", view{Title: "Picking waves", Nav: "waves", User: u, Data: d})
	return nil
}

func (h *Handler) showWave(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, err := pathID(r, "id", "picking wave")
	if err != nil {
		return err
	}
	task, _ := strconv.ParseInt(r.URL.Query().Get("task"), 10, 64)
	return h.wavePage(w, r, u, id, task, http.StatusOK, newForm(), false)
}

// wavePage shows a wave at a task (0: the first open one in walking order).
func (h *Handler) wavePage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, id, taskID int64, status int, f *form, binScanned bool) error {
	wv, err := h.app.Wave(r.Context(), id)
	if err != nil {
		return err
	}
	pr := wv.Progress()
	d := waveData{Wave: wv, Progress: pr, Done: pr.Picked + pr.Short, Scan: f, BinScanned: binScanned, Short: wv.Short()}
	var open []*wave.Task
	for _, t := range wv.Tasks() {
		if t.Status() == wave.StatusOpen {
			open = append(open, t)
		}
	}
	at := 0
	for i, t := range open {
		if t.ID() == taskID {
			at = i
		}
	}
	if len(open) > 0 {
		d.Task = open[at]
		d.Left = d.Task.Quantity() - d.Task.Picked()
		if len(open) > 1 {
			d.Next = open[(at+1)%len(open)].ID()
		}
		f.Values["task"] = strconv.FormatInt(d.Task.ID(), 10)
		f.Values["seen"] = strconv.Itoa(d.Task.Picked())
	}
	if !binScanned {
		delete(f.Values, "bin")
	}
	// The scan field has the focus while a task is open; then the search.
	h.render(w, r, status, "wave", view{Title: fmt.Sprintf("Wave %d", id), Nav: "waves", User: u, Focus: d.Task != nil && canAct(u), Data: d})
	return nil
}

// postedTask reads the wave and the open task a form was posted for; a
// task done meanwhile answers with a redirect to the wave's next one, and
// task is then nil.
func (h *Handler) postedTask(w http.ResponseWriter, r *http.Request) (int64, *form, *wave.Wave, *wave.Task, error) {
	id, err := pathID(r, "id", "picking wave")
	if err != nil {
		return 0, nil, nil, nil, err
	}
	f := postedForm(r)
	wv, err := h.app.Wave(r.Context(), id)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	taskID, _ := strconv.ParseInt(f.Val("task"), 10, 64)
	task, err := wv.Task(taskID)
	if err != nil || task.Status() != wave.StatusOpen {
		h.redirect(w, r, fmt.Sprintf("/console/waves/%d", id), "That task is done; here is the next one.")
		return id, f, wv, nil, nil
	}
	return id, f, wv, task, nil
}

// scanWave takes one scan: the task's bin first, then its product, which
// confirms the pieces.
func (h *Handler) scanWave(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, f, wv, task, err := h.postedTask(w, r)
	if err != nil || task == nil {
		return err
	}
	taskID := task.ID()
	bin := task.Item().BinLocationCode
	scanned := strings.TrimSpace(f.Val("scan"))
	f.Values["scan"] = ""
	if f.Val("bin") == "" {
		if scanned != bin && strings.Contains(scanned, warehouse.LabelSeparator) {
			if code, err := h.labelledBinCode(r, scanned, wv.WarehouseID()); err != nil {
				return err
			} else if code == bin {
				scanned = bin
			}
		}
		if scanned != bin {
			f.fail("scan", fmt.Sprintf("%q is not bin %s: scan the bin first.", scanned, bin))
			return h.wavePage(w, r, u, id, taskID, http.StatusBadRequest, f.renew(), false)
		}
		f.Values["bin"] = bin
		return h.wavePage(w, r, u, id, taskID, http.StatusOK, f, true)
	}
	c := wave.Confirmation{BinLocationCode: f.Val("bin"), Scan: scanned}
	if f.Val("quantity") != "" {
		q := f.quantity("quantity", true)
		if f.Failed() {
			return h.wavePage(w, r, u, id, taskID, http.StatusBadRequest, f.renew(), true)
		}
		c.Quantity = &q
	}
	if seen, err := strconv.Atoi(f.Val("seen")); err == nil {
		c.Seen = &seen
	}
	out, err := h.app.ConfirmWaveTask(r.Context(), id, taskID, c)
	if err != nil {
		if retry, handled := waveScanError(f, err, task); handled {
			if retry {
				return h.wavePage(w, r, u, id, taskID, http.StatusBadRequest, f.renew(), true)
			}
			h.redirect(w, r, fmt.Sprintf("/console/waves/%d?task=%d", id, taskID), "That scan was already counted.")
			return nil
		}
		return err
	}
	t := out.Task
	notice := fmt.Sprintf("Picked %d of %d × %s on %s.", t.Picked(), t.Quantity(), t.Item().ArticleNumber, bin)
	next := fmt.Sprintf("/console/waves/%d?task=%d", id, taskID)
	if t.Status() != wave.StatusOpen {
		notice += " The task is done."
		next = fmt.Sprintf("/console/waves/%d", id)
	}
	h.redirect(w, r, next, notice)
	return nil
}

// waveScanError puts a refused scan beside the scan field in the
// picker's words: retry says the page asks again, else the form had
// already been counted (sent twice).
func waveScanError(f *form, err error, task *wave.Task) (retry, handled bool) {
	e, ok := errs.As(err)
	if !ok || (e.Kind != errs.Invalid && e.Kind != errs.Conflict) {
		return false, false
	}
	it := task.Item()
	switch e.Code {
	case wave.StaleView:
		return false, true
	case wave.WrongProduct:
		f.fail("scan", fmt.Sprintf("That is not %s: scan the product on %s.", it.ArticleNumber, it.BinLocationCode))
	case wave.WrongLot:
		f.fail("scan", fmt.Sprintf("That is another lot: take lot %s.", it.Lot))
	case wave.WrongBin:
		f.fail("scan", fmt.Sprintf("Scan bin %s first.", it.BinLocationCode))
	case wave.TooMany:
		f.fail("scan", fmt.Sprintf("Only %d left on this task.", task.Quantity()-task.Picked()))
	default:
		f.fail("scan", messageOf(err))
	}
	return true, true
}

// shortWave says the task's bin holds no more than was picked.
func (h *Handler) shortWave(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	id, f, wv, task, err := h.postedTask(w, r)
	if err != nil || task == nil {
		return err
	}
	taskID := task.ID()
	c := wave.Confirmation{BinLocationCode: task.Item().BinLocationCode, Short: true}
	if seen, err := strconv.Atoi(f.Val("seen")); err == nil {
		c.Seen = &seen
	}
	tasksBefore, shortBefore := len(wv.Tasks()), waveShortPieces(wv)
	out, err := h.app.ConfirmWaveTask(r.Context(), id, taskID, c)
	if err != nil {
		if _, handled := waveScanError(f, err, task); handled {
			h.redirect(w, r, fmt.Sprintf("/console/waves/%d", id), "The task had changed; look again before marking it short.")
			return nil
		}
		return err
	}
	notice := fmt.Sprintf("%s is short; the bin is put up for a count.", task.Item().BinLocationCode)
	if added := len(out.Wave.Tasks()) - tasksBefore; added > 0 {
		notice += fmt.Sprintf(" %d new task(s) on other bins.", added)
	}
	if missing := waveShortPieces(out.Wave) - shortBefore; missing > 0 {
		notice += fmt.Sprintf(" %d piece(s) found nowhere.", missing)
	}
	h.redirect(w, r, fmt.Sprintf("/console/waves/%d", id), notice)
	return nil
}

func waveShortPieces(wv *wave.Wave) int {
	n := 0
	for _, s := range wv.Short() {
		n += s.Quantity
	}
	return n
}
