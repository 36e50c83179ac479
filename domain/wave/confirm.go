package wave

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/errs"
)

// Rules a confirmation breaks, for an interface that tells them apart.
const (
	WrongBin       errs.Code = "wrong_bin"
	WrongProduct   errs.Code = "wrong_product"
	WrongLot       errs.Code = "wrong_lot"
	TooMany        errs.Code = "quantity_above_left"
	TaskNotOpen    errs.Code = "task_not_open"
	StaleView      errs.Code = "task_changed_since_seen"
	UnreadableScan errs.Code = "unreadable_scan"
)

// Confirmation is what a picker scanned at a task: the bin, the product
// (its number, EAN/GTIN or a GS1 element string), how many pieces
// (nil: one, or none for a short one), and whether the bin holds no more.
type Confirmation struct {
	BinLocationCode string
	Scan            string
	Quantity        *int
	Short           bool
	// Seen, when given, is how many pieces of the task were picked when the
	// picker was shown it: a confirmation made from an older view (a form
	// sent twice) is a conflict and counts nothing twice.
	Seen *int
}

// Release is what a short task gives back: the pieces of one position it
// had reserved and nobody found.
type Release struct {
	Item
	OrderID       int64
	OrderDetailID int64
	Quantity      int
}

// Confirm records a confirmation of a task. The bin and the product (and
// its lot, when the scan names one) must be the task's, else it is a
// conflict that changes nothing; the quantity must be at least one (none
// is allowed for a short task) and at most what the task has left. The
// pieces go to the task's orders by ascending order id. A short
// confirmation closes the task and answers with the pieces to release;
// the caller reserves them elsewhere (AddReserved) and records what it
// could not (AddShort). today reads the dates of a GS1 scan.
func (w *Wave) Confirm(taskID int64, c Confirmation, today time.Time) ([]Release, error) {
	t, err := w.Task(taskID)
	if err != nil {
		return nil, err
	}
	quantity := 1
	if c.Short {
		quantity = 0
	}
	if c.Quantity != nil {
		quantity = *c.Quantity
	}
	if c.Seen != nil && *c.Seen != t.Picked() {
		return nil, errs.Conflictf("task %d of picking wave %d has %d pieces picked, not the %d this confirmation was made on",
			t.id, w.id, t.Picked(), *c.Seen).Breaks(StaleView)
	}
	if t.status != StatusOpen {
		return nil, errs.InvalidFields(errs.FieldError{Property: "quantity",
			Message: fmt.Sprintf("task %d of picking wave %d is %s: nothing is left to pick", t.id, w.id, t.status)}).Breaks(TaskNotOpen)
	}
	if got := strings.TrimSpace(c.BinLocationCode); got != t.item.BinLocationCode {
		return nil, errs.Conflictf("scanned bin location %q, expected %q", got, t.item.BinLocationCode).
			On("binLocationCode").Breaks(WrongBin)
	}
	// A short task that found nothing has nothing to scan; whatever is
	// scanned must still be the task's.
	if strings.TrimSpace(c.Scan) != "" || !c.Short || quantity > 0 {
		if err := t.matches(c.Scan, today); err != nil {
			return nil, err
		}
	}
	switch left := t.Quantity() - t.Picked(); {
	case quantity < 0 || quantity == 0 && !c.Short:
		return nil, errs.InvalidFields(errs.FieldError{Property: "quantity", Message: "must be at least 1"}).Breaks(TooMany)
	case quantity > left:
		return nil, errs.InvalidFields(errs.FieldError{Property: "quantity",
			Message: "quantity " + strconv.Itoa(quantity) + " is more than the " + strconv.Itoa(left) + " pieces the task has left"}).Breaks(TooMany)
	}
	t.changed = true
	for i := range t.orders {
		a := &t.orders[i]
		n := min(quantity, a.Quantity-a.Picked)
		a.Picked += n
		quantity -= n
	}
	if t.Picked() == t.Quantity() {
		t.status = StatusPicked
		return nil, nil
	}
	if !c.Short {
		return nil, nil
	}
	t.status = StatusShort
	var out []Release
	for i := range t.orders {
		a := &t.orders[i]
		if n := a.Quantity - a.Picked; n > 0 {
			out = append(out, Release{Item: t.item, OrderID: a.OrderID, OrderDetailID: a.OrderDetailID, Quantity: n})
		}
	}
	return out, nil
}

// matches checks that a scan names the task's product, and its lot when
// the scan tells one.
func (t *Task) matches(text string, today time.Time) error {
	s, err := barcode.ReadScan(text, today)
	if err != nil {
		return errs.InvalidFields(errs.FieldError{Property: "scan", Message: err.Error()}).Breaks(UnreadableScan)
	}
	if s.Text == "" {
		return errs.InvalidFields(errs.FieldError{Property: "scan", Message: "must name the product"}).Breaks(UnreadableScan)
	}
	if !t.names(s) {
		return errs.Conflictf("scanned %q, expected product %s", s.Text, t.describe()).On("scan").Breaks(WrongProduct)
	}
	if s.GS1 != nil && s.GS1.Lot != "" && t.item.Lot != "" && s.GS1.Lot != t.item.Lot {
		return errs.Conflictf("scanned lot %q, expected lot %q", s.GS1.Lot, t.item.Lot).On("scan").Breaks(WrongLot)
	}
	return nil
}

// names tells whether a scan is the task's product: its number as
// written, or its GTIN with or without leading zeros.
func (t *Task) names(s barcode.Scan) bool {
	if s.GS1 == nil && s.Text == t.item.ArticleNumber {
		return true
	}
	if s.GTIN == "" || t.item.EAN == "" {
		return false
	}
	g, err := barcode.ParseGTIN(t.item.EAN)
	return err == nil && g.Same(s.GTIN)
}

func (t *Task) describe() string {
	if t.item.EAN != "" {
		return t.item.ArticleNumber + " (EAN " + t.item.EAN + ")"
	}
	return t.item.ArticleNumber
}

// AddReserved adds tasks for pieces reserved after a short bin: they join
// an open task of their bin, product and lot, else make new ones, in
// walking order.
func (w *Wave) AddReserved(picks []Pick) error { return w.add(picks) }

// AddShort records pieces of a position that no bin could give.
func (w *Wave) AddShort(orderID, orderDetailID int64, quantity int) {
	if quantity <= 0 {
		return
	}
	w.shortDirty = true
	for i := range w.short {
		if w.short[i].OrderDetailID == orderDetailID {
			w.short[i].Quantity += quantity
			return
		}
	}
	w.short = append(w.short, Short{OrderID: orderID, OrderDetailID: orderDetailID, Quantity: quantity})
}
