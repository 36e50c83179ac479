// Package purchase holds the PurchaseOrder aggregate: stock
// ordered from a supplier for one warehouse, announced before it arrives
// (incomingStock) and received against its lines.
package purchase

import (
	"fmt"
	"time"

	"github.com/shopstock/inventory/domain/calendar"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// MaxLines bounds the lines of one purchase order and of one receipt.
const MaxLines = 1000

// The rules a purchase order can break, for interfaces that show them.
const (
	OverReceipt   errs.Code = "over_receipt"
	NotReceivable errs.Code = "not_receivable"
	UnknownLine   errs.Code = "unknown_line"
	NotChangeable errs.Code = "not_changeable"
	NotDeletable  errs.Code = "not_deletable"
)

// Order is a purchase order with its lines. Its fields stay unexported so
// that every change goes through a method that keeps its rules.
type Order struct {
	id          int64
	number      string
	supplier    string
	warehouseID int64
	status      Status
	// expectedAt is a date as written (calendar.Layout), "" when none was
	// given.
	expectedAt string
	createdAt  time.Time
	lines      []*Line
	// loaded is what the order was when storage loaded it; nil for an
	// order that is not stored yet (see Changes).
	loaded *loadedOrder
	// deleted is set by Delete: the order goes when it is saved.
	deleted bool
}

// Line is one line of a purchase order: how many pieces of an article
// detail were ordered and how many of them arrived.
type Line struct {
	id              int64
	articleDetailID int64
	quantity        int
	received        int
}

// NewOrder is what a client may say about a purchase order, with its
// warehouse already resolved to an id. An ID of 0 means the storage assigns
// one; ExpectedAt nil means no date.
type NewOrder struct {
	ID          int64
	Number      string
	Supplier    string
	WarehouseID int64
	ExpectedAt  *string
	Lines       []NewLine
}

// NewLine is what a client may say about one line.
type NewLine struct {
	ID              int64
	ArticleDetailID int64
	Quantity        int
}

// New validates p and builds an Open purchase order created at now. Every
// broken rule is reported at once, each under its JSON property.
func New(p NewOrder, now time.Time) (*Order, error) {
	var bad []errs.FieldError
	fail := func(property, format string, args ...any) {
		bad = append(bad, errs.FieldError{Property: property, Message: fmt.Sprintf(format, args...)})
	}
	if p.ID < 0 {
		fail("id", "must be positive")
	}
	number, err := code.Parse(p.Number)
	if err != nil {
		fail("number", "%s", err)
	}
	if err := code.CheckText(p.Supplier, code.MaxText); err != nil {
		fail("supplier", "%s", err)
	}
	if p.WarehouseID <= 0 {
		fail("warehouse", "must name a warehouse")
	}
	expected := ""
	if p.ExpectedAt != nil {
		if expected, err = ParseDate(*p.ExpectedAt); err != nil {
			fail("expectedAt", "%s", err)
		}
	}
	switch {
	case len(p.Lines) == 0:
		fail("lines", "must contain at least one line")
	case len(p.Lines) > MaxLines:
		fail("lines", "must contain at most %d lines, got %d", MaxLines, len(p.Lines))
	}
	lines := make([]*Line, 0, len(p.Lines))
	withID := map[int64]int{}
	ofArticle := map[int64]int{}
	for i, nl := range p.Lines {
		prop := func(field string) string { return fmt.Sprintf("lines[%d].%s", i, field) }
		switch {
		case nl.ID < 0:
			fail(prop("id"), "must be positive")
		case nl.ID > 0:
			if j, dup := withID[nl.ID]; dup {
				fail(prop("id"), "duplicates lines[%d].id %d", j, nl.ID)
			} else {
				withID[nl.ID] = i
			}
		}
		if nl.ArticleDetailID <= 0 {
			fail(prop("articleDetailId"), "must be positive")
		} else if j, dup := ofArticle[nl.ArticleDetailID]; dup {
			fail(prop("articleDetailId"), "lines[%d] already orders article detail %d: one line per article detail", j, nl.ArticleDetailID)
		} else {
			ofArticle[nl.ArticleDetailID] = i
		}
		switch {
		case nl.Quantity < 1:
			fail(prop("quantity"), "must be at least 1")
		case nl.Quantity > stock.MaxQuantity:
			fail(prop("quantity"), "must be at most %d", stock.MaxQuantity)
		}
		lines = append(lines, &Line{id: nl.ID, articleDetailID: nl.ArticleDetailID, quantity: nl.Quantity})
	}
	if len(bad) > 0 {
		return nil, errs.InvalidFields(bad...)
	}
	return &Order{id: p.ID, number: number, supplier: p.Supplier, warehouseID: p.WarehouseID, status: Open,
		expectedAt: expected, createdAt: now, lines: lines}, nil
}

// ParseDate reads a date written YYYY-MM-DD, with the domain's one date
// parser (calendar.Parse).
func ParseDate(raw string) (string, error) {
	if _, err := calendar.Parse(raw); err != nil {
		return "", fmt.Errorf("must be a date written YYYY-MM-DD, got %q", raw)
	}
	return raw, nil
}

// LineRecord is a line as the storage holds it.
type LineRecord struct {
	ID              int64
	ArticleDetailID int64
	Quantity        int
	Received        int
}

// UnmarshalOrderFromDatabase rebuilds a stored purchase order. Only storage
// adapters call it; a stored row that breaks a rule is corrupt data, an
// Internal error.
func UnmarshalOrderFromDatabase(id int64, number, supplier string, warehouseID int64, status, expectedAt string, createdAt time.Time, lines []LineRecord) (*Order, error) {
	p := NewOrder{ID: id, Number: number, Supplier: supplier, WarehouseID: warehouseID, Lines: make([]NewLine, len(lines))}
	if expectedAt != "" {
		p.ExpectedAt = &expectedAt
	}
	for i, l := range lines {
		p.Lines[i] = NewLine{ID: l.ID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity}
	}
	o, err := New(p, createdAt)
	if err == nil {
		o.status, err = ParseStatus(status)
	}
	for i, l := range lines {
		if err != nil {
			break
		}
		if l.ID <= 0 || l.Received < 0 || l.Received > l.Quantity {
			err = fmt.Errorf("line %d: id %d, received %d of %d", i, l.ID, l.Received, l.Quantity)
		}
		o.lines[i].received = l.Received
	}
	if err == nil && id <= 0 {
		err = fmt.Errorf("id %d is not positive", id)
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, fmt.Sprintf("stored purchase order %d is invalid", id))
	}
	o.loaded = &loadedOrder{status: o.status, incoming: o.Incoming()}
	return o, nil
}

// AssignIDs stores the ids the storage chose: orderID for the order and
// lineIDs[i] for Lines()[i]. Ids the client chose must come back unchanged.
func (o *Order) AssignIDs(orderID int64, lineIDs []int64) error {
	if orderID <= 0 || (o.id != 0 && orderID != o.id) || len(lineIDs) != len(o.lines) {
		return errs.E(errs.Internal, "cannot assign id %d and %d line ids to purchase order %q", orderID, len(lineIDs), o.number)
	}
	for i, id := range lineIDs {
		if cur := o.lines[i].id; id <= 0 || (cur != 0 && cur != id) {
			return errs.E(errs.Internal, "cannot assign id %d to line %d (id %d) of purchase order %q", id, i, cur, o.number)
		}
	}
	o.id = orderID
	for i, id := range lineIDs {
		o.lines[i].id = id
	}
	return nil
}

func (o *Order) ID() int64            { return o.id }
func (o *Order) Number() string       { return o.number }
func (o *Order) Supplier() string     { return o.supplier }
func (o *Order) WarehouseID() int64   { return o.warehouseID }
func (o *Order) Status() Status       { return o.status }
func (o *Order) CreatedAt() time.Time { return o.createdAt }

// ExpectedAt is the expected date (calendar.Layout), "" when there is none.
func (o *Order) ExpectedAt() string { return o.expectedAt }

// Lines returns the lines in the order they were given, a copy of the list.
func (o *Order) Lines() []*Line { return append([]*Line(nil), o.lines...) }

// Line finds a line by its id.
func (o *Order) Line(id int64) (*Line, bool) {
	for _, l := range o.lines {
		if l.id == id {
			return l, true
		}
	}
	return nil, false
}

func (l *Line) ID() int64              { return l.id }
func (l *Line) ArticleDetailID() int64 { return l.articleDetailID }
func (l *Line) Quantity() int          { return l.quantity }
func (l *Line) Received() int          { return l.received }

// Outstanding is what may still be received on the line: what was ordered
// and has not arrived, while the order is open; nothing once it is received
// or cancelled (cancelling ends what is outstanding).
func (o *Order) Outstanding(l *Line) int {
	if !o.status.open() {
		return 0
	}
	return l.quantity - l.received
}

// Incoming is what the order still brings of each article detail: the sum
// of its lines' Outstanding, products with nothing outstanding left out.
// incomingStock of a product is the sum of this over all purchase orders.
func (o *Order) Incoming() map[int64]int {
	out := map[int64]int{}
	for _, l := range o.lines {
		if n := o.Outstanding(l); n > 0 {
			out[l.articleDetailID] += n
		}
	}
	return out
}

// Difference is what turns the incoming quantities before into after, per
// article detail; those that did not change are left out.
func Difference(before, after map[int64]int) map[int64]int {
	out := map[int64]int{}
	for id, n := range after {
		if d := n - before[id]; d != 0 {
			out[id] = d
		}
	}
	for id, n := range before {
		if _, ok := after[id]; !ok && n != 0 {
			out[id] = -n
		}
	}
	return out
}

// ApplyIncoming is the products' kept incomingStock after the changes:
// kept holds what was kept (products missing from it had none), the result
// holds every product the changes concern, 0 for those that have nothing
// incoming any more.
func ApplyIncoming(kept, changes map[int64]int) map[int64]int {
	out := make(map[int64]int, len(changes))
	for id, d := range changes {
		out[id] = kept[id] + d
	}
	return out
}

// Change is what a client may change on a purchase order: nil leaves a
// field as it is. ExpectedAt set to "" clears the date.
type Change struct {
	Status     *string
	ExpectedAt *string
	Supplier   *string
}

// Apply changes the order: only an Open or Partially received order
// changes, and the only status that can be set by hand is Cancelled
// (which ends what is still outstanding). Every broken rule is reported at
// once and nothing changes then.
func (o *Order) Apply(c Change) error {
	var bad []errs.FieldError
	rule := NotChangeable
	if !o.status.open() {
		bad = append(bad, errs.FieldError{Property: "status", Message: fmt.Sprintf("purchase order %s is %s: only an Open or Partially received purchase order changes", o.number, o.status)})
	}
	if c.Status != nil && *c.Status != string(Cancelled) && o.status.open() {
		bad = append(bad, errs.FieldError{Property: "status", Message: fmt.Sprintf("only %q can be set by hand, not %q", Cancelled, *c.Status)})
	}
	expected := o.expectedAt
	if c.ExpectedAt != nil && *c.ExpectedAt != "" {
		var err error
		if expected, err = ParseDate(*c.ExpectedAt); err != nil {
			bad = append(bad, errs.FieldError{Property: "expectedAt", Message: err.Error()})
			rule = ""
		}
	} else if c.ExpectedAt != nil {
		expected = ""
	}
	if c.Supplier != nil {
		if err := code.CheckText(*c.Supplier, code.MaxText); err != nil {
			bad = append(bad, errs.FieldError{Property: "supplier", Message: err.Error()})
			rule = ""
		}
	}
	if len(bad) > 0 {
		return errs.InvalidFields(bad...).Breaks(rule)
	}
	o.expectedAt = expected
	if c.Supplier != nil {
		o.supplier = *c.Supplier
	}
	if c.Status != nil {
		o.status = Cancelled
	}
	return nil
}

// Delete marks the order to go (storage removes it): only an Open order
// with nothing received may. What it would have brought leaves
// incomingStock (Changes).
func (o *Order) Delete() error {
	if err := o.CheckDeletable(); err != nil {
		return err
	}
	o.deleted = true
	return nil
}

// Deleted tells whether Delete marked the order to go.
func (o *Order) Deleted() bool { return o.deleted }

// CheckDeletable tells whether the order may be deleted: only while it is
// Open and nothing of it was received.
func (o *Order) CheckDeletable() error {
	received := 0
	for _, l := range o.lines {
		received += l.received
	}
	if o.status != Open || received > 0 {
		return errs.Invalidf("purchase order %s is %s with %d pieces received: only an Open purchase order with nothing received can be deleted; cancel it instead",
			o.number, o.status, received).On("status").Breaks(NotDeletable)
	}
	return nil
}

// ReceiptLine is what arrived on one line: its quantity, and where it goes
// (nil: the product's default bin in the order's warehouse, else its
// unknown bin location).
type ReceiptLine struct {
	LineID   int64
	Quantity int
	At       *stock.LocationSpec
	// Lot is the lot the pieces belong to (required for a lot-tracked
	// product).
	Lot *stock.LotSpec
}

// CheckReceipt tells whether the lines may be received: the order takes
// receipts (Open or Partially received), 1..MaxLines lines, each of a line
// of this order and named once, each quantity 1..Outstanding. Every broken
// rule is reported at once, each naming its line's id.
func (o *Order) CheckReceipt(lines []ReceiptLine) error {
	if !o.status.open() {
		return errs.Invalidf("purchase order %s is %s and takes no receipt", o.number, o.status).On("status").Breaks(NotReceivable)
	}
	var bad []errs.FieldError
	var rule errs.Code
	fail := func(c errs.Code, property, format string, args ...any) {
		if len(bad) == 0 {
			rule = c
		} else if rule != c {
			rule = ""
		}
		bad = append(bad, errs.FieldError{Property: property, Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case len(lines) == 0:
		fail("", "lines", "must contain at least one line")
	case len(lines) > MaxLines:
		fail("", "lines", "must contain at most %d lines, got %d", MaxLines, len(lines))
	}
	seen := map[int64]int{}
	for i, rl := range lines {
		prop := func(field string) string { return fmt.Sprintf("lines[%d].%s", i, field) }
		l, ok := o.Line(rl.LineID)
		if !ok || rl.LineID <= 0 {
			fail(UnknownLine, prop("lineId"), "purchase order %s has no line %d", o.number, rl.LineID)
			continue
		}
		if j, dup := seen[rl.LineID]; dup {
			fail("", prop("lineId"), "line %d is already received in lines[%d]: name each line once", rl.LineID, j)
			continue
		}
		seen[rl.LineID] = i
		left := o.Outstanding(l)
		switch {
		case rl.Quantity < 1:
			fail(stock.QuantityOutOfRange, prop("quantity"), "line %d: must be at least 1", l.id)
		case rl.Quantity > left:
			fail(OverReceipt, prop("quantity"), "line %d ordered %d and received %d: at most %d more can be received, not %d",
				l.id, l.quantity, l.received, left, rl.Quantity)
		}
	}
	if len(bad) > 0 {
		return errs.InvalidFields(bad...).Breaks(rule)
	}
	return nil
}

// receive books the lines as received and moves the status on: Received
// when every line is complete, else Partially received. The lines must have
// passed CheckReceipt.
func (o *Order) receive(lines []ReceiptLine) {
	for _, rl := range lines {
		l, _ := o.Line(rl.LineID)
		l.received += rl.Quantity
	}
	o.status = Received
	for _, l := range o.lines {
		if l.received < l.quantity {
			o.status = PartiallyReceived
		}
	}
}
