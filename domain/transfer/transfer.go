// Package transfer holds the Transfer aggregate: stock that moves from one
// warehouse to another over days. While it is on the road it belongs to
// neither warehouse and is not for sale, and it is never lost from the
// books: for every line, shipped = received + returned + lost + in transit.
package transfer

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// MaxLines bounds the lines of one transfer, of one shipment and of one
// receipt.
const MaxLines = 1000

// The rules a transfer can break, for interfaces that show them.
const (
	OverShipment    errs.Code = "over_shipment"
	NothingToShip   errs.Code = "nothing_to_ship"
	OverReceipt     errs.Code = "over_receipt"
	LotNotInTransit errs.Code = "lot_not_in_transit"
	LotAmbiguous    errs.Code = "lot_ambiguous"
	NotRunning      errs.Code = "not_running"
	UnknownLine     errs.Code = "unknown_line"
	InTransitOpen   errs.Code = "in_transit_undecided"
	WrongWarehouse  errs.Code = "wrong_warehouse"
)

// Transfer moves stock from a source warehouse to a destination warehouse,
// line by line. Its fields stay unexported so that every change goes
// through a method that keeps its rules.
type Transfer struct {
	id          int64
	number      string
	source      int64
	destination int64
	status      Status
	createdAt   time.Time
	lines       []*Line
	// loaded is what the transfer was when storage loaded it; nil for one
	// not stored yet (see Changes).
	loaded *loadedTransfer
}

// Line is one line of a transfer: how many pieces of an article detail
// (of one lot, when it names one) are to move, and what became of those
// that left, per lot they travel in.
type Line struct {
	id              int64
	articleDetailID int64
	// lot is the lot the line names, "" when it names none.
	lot      string
	quantity int
	// lots are the pieces shipped per lot ("" for a product that is not
	// lot-tracked), in the order they were first shipped.
	lots []*LotRecord
}

// LotRecord is what became of the pieces of one lot a line shipped:
// shipped = received + returned + lost + in transit, in transit never
// below 0.
type LotRecord struct {
	// Number is the lot, "" for a product that is not lot-tracked.
	Number   string
	Shipped  int
	Received int
	Returned int
	Lost     int
}

// InTransit is what of the lot is still on the road.
func (r LotRecord) InTransit() int { return r.Shipped - r.Received - r.Returned - r.Lost }

func (r LotRecord) valid() bool {
	return r.Shipped >= 0 && r.Received >= 0 && r.Returned >= 0 && r.Lost >= 0 && r.InTransit() >= 0
}

// NewTransfer is what a client may say about a transfer, with its
// warehouses already resolved to ids. An ID of 0 means the storage assigns
// one.
type NewTransfer struct {
	ID                     int64
	Number                 string
	SourceWarehouseID      int64
	DestinationWarehouseID int64
	Lines                  []NewLine
}

// NewLine is what a client may say about one line; Lot is "" when it names
// none.
type NewLine struct {
	ID              int64
	ArticleDetailID int64
	Quantity        int
	Lot             string
}

// New validates p and builds an Open transfer created at now. Every broken
// rule is reported at once, each under its JSON property.
func New(p NewTransfer, now time.Time) (*Transfer, error) {
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
	if p.SourceWarehouseID <= 0 {
		fail("source", "must name a warehouse")
	}
	if p.DestinationWarehouseID <= 0 {
		fail("destination", "must name a warehouse")
	}
	if p.SourceWarehouseID > 0 && p.SourceWarehouseID == p.DestinationWarehouseID {
		fail("destination", "must differ from the source warehouse %d", p.SourceWarehouseID)
	}
	switch {
	case len(p.Lines) == 0:
		fail("lines", "must contain at least one line")
	case len(p.Lines) > MaxLines:
		fail("lines", "must contain at most %d lines, got %d", MaxLines, len(p.Lines))
	}
	type item struct {
		article int64
		lot     string
	}
	lines := make([]*Line, 0, len(p.Lines))
	withID := map[int64]int{}
	ofItem := map[item]int{}
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
		lot := ""
		if nl.Lot != "" || strings.TrimSpace(nl.Lot) != nl.Lot {
			if err := (stock.LotSpec{Number: nl.Lot}).Validate(prop("lot")); err != nil {
				e, _ := errs.As(err)
				fail(e.Property, "%s", e.Message)
			}
			lot = strings.TrimSpace(nl.Lot)
		}
		if nl.ArticleDetailID <= 0 {
			fail(prop("articleDetailId"), "must be positive")
		} else if j, dup := ofItem[item{nl.ArticleDetailID, lot}]; dup {
			fail(prop("articleDetailId"), "lines[%d] already moves article detail %d%s: one line per article detail and lot",
				j, nl.ArticleDetailID, lotLabel(lot))
		} else {
			ofItem[item{nl.ArticleDetailID, lot}] = i
		}
		switch {
		case nl.Quantity < 1:
			fail(prop("quantity"), "must be at least 1")
		case nl.Quantity > stock.MaxQuantity:
			fail(prop("quantity"), "must be at most %d", stock.MaxQuantity)
		}
		lines = append(lines, &Line{id: nl.ID, articleDetailID: nl.ArticleDetailID, lot: lot, quantity: nl.Quantity})
	}
	if len(bad) > 0 {
		return nil, errs.InvalidFields(bad...)
	}
	return &Transfer{id: p.ID, number: number, source: p.SourceWarehouseID, destination: p.DestinationWarehouseID,
		status: Open, createdAt: now, lines: lines}, nil
}

func lotLabel(lot string) string {
	if lot == "" {
		return ""
	}
	return fmt.Sprintf(" of lot %q", lot)
}

// LineRecord is a line as the storage holds it.
type LineRecord struct {
	ID              int64
	ArticleDetailID int64
	Lot             string
	Quantity        int
	Lots            []LotRecord
}

// UnmarshalTransferFromDatabase rebuilds a stored transfer. Only storage
// adapters call it; a stored row that breaks a rule is corrupt data, an
// Internal error.
func UnmarshalTransferFromDatabase(id int64, number string, source, destination int64, status string, createdAt time.Time, lines []LineRecord) (*Transfer, error) {
	p := NewTransfer{ID: id, Number: number, SourceWarehouseID: source, DestinationWarehouseID: destination, Lines: make([]NewLine, len(lines))}
	for i, l := range lines {
		p.Lines[i] = NewLine{ID: l.ID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity, Lot: l.Lot}
	}
	t, err := New(p, createdAt)
	if err == nil {
		t.status, err = ParseStatus(status)
	}
	for i, l := range lines {
		if err != nil {
			break
		}
		shipped := 0
		for _, r := range l.Lots {
			if !r.valid() || (l.Lot != "" && r.Number != l.Lot) {
				err = fmt.Errorf("line %d, lot %q: shipped %d, received %d, returned %d, lost %d", l.ID, r.Number, r.Shipped, r.Received, r.Returned, r.Lost)
				break
			}
			shipped += r.Shipped
			r := r
			t.lines[i].lots = append(t.lines[i].lots, &r)
		}
		if err == nil && (l.ID <= 0 || shipped > l.Quantity) {
			err = fmt.Errorf("line %d: id %d, shipped %d of %d", i, l.ID, shipped, l.Quantity)
		}
	}
	if err == nil && id <= 0 {
		err = fmt.Errorf("id %d is not positive", id)
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, fmt.Sprintf("stored transfer %d is invalid", id))
	}
	t.loaded = &loadedTransfer{status: t.status, inTransit: t.InTransit()}
	return t, nil
}

// AssignIDs stores the ids the storage chose: transferID for the transfer
// and lineIDs[i] for Lines()[i]. Ids the client chose must come back
// unchanged.
func (t *Transfer) AssignIDs(transferID int64, lineIDs []int64) error {
	if transferID <= 0 || (t.id != 0 && transferID != t.id) || len(lineIDs) != len(t.lines) {
		return errs.E(errs.Internal, "cannot assign id %d and %d line ids to transfer %q", transferID, len(lineIDs), t.number)
	}
	for i, id := range lineIDs {
		if cur := t.lines[i].id; id <= 0 || (cur != 0 && cur != id) {
			return errs.E(errs.Internal, "cannot assign id %d to line %d (id %d) of transfer %q", id, i, cur, t.number)
		}
	}
	t.id = transferID
	for i, id := range lineIDs {
		t.lines[i].id = id
	}
	return nil
}

func (t *Transfer) ID() int64                     { return t.id }
func (t *Transfer) Number() string                { return t.number }
func (t *Transfer) SourceWarehouseID() int64      { return t.source }
func (t *Transfer) DestinationWarehouseID() int64 { return t.destination }
func (t *Transfer) Status() Status                { return t.status }
func (t *Transfer) CreatedAt() time.Time          { return t.createdAt }

// Lines returns the lines in the order they were given, a copy of the list.
func (t *Transfer) Lines() []*Line { return append([]*Line(nil), t.lines...) }

// Line finds a line by its id.
func (t *Transfer) Line(id int64) (*Line, bool) {
	for _, l := range t.lines {
		if l.id == id {
			return l, true
		}
	}
	return nil, false
}

func (l *Line) ID() int64              { return l.id }
func (l *Line) ArticleDetailID() int64 { return l.articleDetailID }
func (l *Line) Quantity() int          { return l.quantity }

// Lot is the lot the line names, "" when it names none.
func (l *Line) Lot() string { return l.lot }

// Lots are what the line shipped per lot, in the order first shipped: a
// copy.
func (l *Line) Lots() []LotRecord {
	out := make([]LotRecord, len(l.lots))
	for i, r := range l.lots {
		out[i] = *r
	}
	return out
}

func (l *Line) sum(f func(LotRecord) int) int {
	n := 0
	for _, r := range l.lots {
		n += f(*r)
	}
	return n
}

func (l *Line) Shipped() int   { return l.sum(func(r LotRecord) int { return r.Shipped }) }
func (l *Line) Received() int  { return l.sum(func(r LotRecord) int { return r.Received }) }
func (l *Line) Returned() int  { return l.sum(func(r LotRecord) int { return r.Returned }) }
func (l *Line) Lost() int      { return l.sum(func(r LotRecord) int { return r.Lost }) }
func (l *Line) InTransit() int { return l.sum(LotRecord.InTransit) }

// lotRecord is the line's record of a lot, created when create is set.
func (l *Line) lotRecord(number string, create bool) *LotRecord {
	for _, r := range l.lots {
		if r.Number == number {
			return r
		}
	}
	if !create {
		return nil
	}
	r := &LotRecord{Number: number}
	l.lots = append(l.lots, r)
	return r
}

// LeftToShip is what the line may still ship: what it has not shipped,
// while the transfer runs; nothing once it is completed or cancelled.
func (t *Transfer) LeftToShip(l *Line) int {
	if !t.status.running() {
		return 0
	}
	return l.quantity - l.Shipped()
}

// InTransit is what the transfer has on the road of each article detail,
// products with nothing on the road left out. inTransitStock of a product
// is the sum of this over all transfers.
func (t *Transfer) InTransit() map[int64]int {
	out := map[int64]int{}
	for _, l := range t.lines {
		if n := l.InTransit(); n > 0 {
			out[l.articleDetailID] += n
		}
	}
	return out
}

// afterReceipt moves the status on after pieces arrived: Completed once
// every line is fully shipped and nothing is in transit, else Partially
// received.
func (t *Transfer) afterReceipt() {
	for _, l := range t.lines {
		if l.Shipped() < l.quantity || l.InTransit() > 0 {
			t.status = PartiallyReceived
			return
		}
	}
	t.status = Completed
}

// notRunning is the error of a transfer that takes no more shipments,
// receipts or cancellation.
func (t *Transfer) notRunning(what string) error {
	return errs.Invalidf("transfer %s is %s and takes no %s", t.number, t.status, what).On("status").Breaks(NotRunning)
}

// lineProblems gathers the broken rules of a request's lines, each under
// its property; the code is the rule when they all break the same one.
type lineProblems struct {
	bad  []errs.FieldError
	rule errs.Code
}

func (p *lineProblems) fail(c errs.Code, property, format string, args ...any) {
	if len(p.bad) == 0 {
		p.rule = c
	} else if p.rule != c {
		p.rule = ""
	}
	p.bad = append(p.bad, errs.FieldError{Property: property, Message: fmt.Sprintf(format, args...)})
}

// add takes an error of the stock engine as the error of one line: its
// message names the line, its property lies within the line's.
func (p *lineProblems) add(prop string, lineID int64, err error) error {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid {
		return err
	}
	property := prop
	if e.Property != "" {
		property += "." + e.Property
	} else if e.Code == stock.InsufficientStock || e.Code == stock.StockLimit {
		property += ".quantity"
	}
	p.fail(e.Code, property, "line %d: %s", lineID, e.Message)
	return nil
}

// err is the problems as one error, in the order of the request's lines.
func (p *lineProblems) err() error {
	if len(p.bad) == 0 {
		return nil
	}
	slices.SortStableFunc(p.bad, func(a, b errs.FieldError) int { return cmp.Compare(lineIndex(a.Property), lineIndex(b.Property)) })
	return errs.InvalidFields(p.bad...).Breaks(p.rule)
}

// lineIndex is i of a property lines[i]…, -1 for one of the whole request.
func lineIndex(property string) int {
	rest, ok := strings.CutPrefix(property, "lines[")
	if !ok {
		return -1
	}
	digits, _, _ := strings.Cut(rest, "]")
	i, err := strconv.Atoi(digits)
	if err != nil {
		return -1
	}
	return i
}
