package transfer

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// ReceiptLine is what arrived on one line: its quantity, where it goes
// (nil: the product's default bin in the destination, else its unknown bin
// location), and the lot it travelled in (nil: the one lot the line has on
// the road).
type ReceiptLine struct {
	LineID   int64
	Quantity int
	At       *stock.LocationSpec
	Lot      *stock.LotSpec
}

// Receiving books pieces of a transfer that arrived at its destination:
// every line or none. Each line's pieces come into stock through the
// stock engine (stock.WorkingSet.TransferIn) in the lot they travelled
// with. Run leaves the record in Result.
type Receiving struct {
	Transfer *Transfer
	Lines    []ReceiptLine
	Now      time.Time
	User     string
	Result   *Movement
}

func (r *Receiving) at(l ReceiptLine) stock.LocationSpec {
	if l.At != nil {
		return *l.At
	}
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: r.Transfer.destination}}
}

func (r *Receiving) Declare(sc *stock.Scope) {
	sc.AddLocation(stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: r.Transfer.destination}})
	for _, rl := range r.Lines {
		if l, ok := r.Transfer.Line(rl.LineID); ok {
			sc.Add(l.articleDetailID, r.at(rl))
		}
	}
}

// received is one receipt line checked: its line and the lot it takes.
type received struct {
	line *Line
	lot  string
}

// CheckReceipt tells whether the lines may be received: the transfer runs,
// 1..MaxLines lines, each of a line of this transfer, each quantity 1 up
// to what the line has in transit of its lot (a line and lot named twice
// counts both). A line with pieces of several lots on the road must name
// the lot; a lot it has not on the road is refused. Every broken rule is
// reported at once, each naming its line's id. It returns each line's lot.
func (t *Transfer) CheckReceipt(lines []ReceiptLine) error {
	_, p, err := t.checkReceipt(lines)
	if err != nil {
		return err
	}
	return p.err()
}

// checkReceipt is CheckReceipt's answer in parts: each line's line and lot
// (nil where the line has a problem), the problems, and the error of a
// transfer that receives nothing.
func (t *Transfer) checkReceipt(lines []ReceiptLine) ([]received, *lineProblems, error) {
	if !t.status.running() {
		return nil, nil, t.notRunning("receipt")
	}
	p := &lineProblems{}
	switch {
	case len(lines) == 0:
		p.fail("", "lines", "must contain at least one line")
	case len(lines) > MaxLines:
		p.fail("", "lines", "must contain at most %d lines, got %d", MaxLines, len(lines))
	}
	out := make([]received, len(lines))
	type lineLot struct {
		line int64
		lot  string
	}
	asked := map[lineLot]int{}
	for i, rl := range lines {
		prop := func(field string) string { return fmt.Sprintf("lines[%d].%s", i, field) }
		l, ok := t.Line(rl.LineID)
		if !ok || rl.LineID <= 0 {
			p.fail(UnknownLine, prop("lineId"), "transfer %s has no line %d", t.number, rl.LineID)
			continue
		}
		lot, problem := l.lotToReceive(rl.Lot)
		if problem != "" {
			p.fail(problem, prop("lot"), "line %d: %s", l.id, l.lotMessage(problem, rl.Lot))
			continue
		}
		inTransit := 0
		if r := l.lotRecord(lot, false); r != nil {
			inTransit = r.InTransit()
		}
		left := inTransit - asked[lineLot{l.id, lot}]
		switch {
		case rl.Quantity < 1:
			p.fail(stock.QuantityOutOfRange, prop("quantity"), "line %d: must be at least 1", l.id)
		case rl.Quantity > left:
			p.fail(OverReceipt, prop("quantity"), "line %d has %d in transit%s: at most %d more can be received, not %d",
				l.id, inTransit, lotLabel(lot), max(left, 0), rl.Quantity)
		default:
			out[i] = received{line: l, lot: lot}
		}
		asked[lineLot{l.id, lot}] += max(rl.Quantity, 0)
	}
	return out, p, nil
}

// lotToReceive is the lot a receipt line of l takes: the one named, which
// l must have shipped, else the one lot l has on the road. The problem is
// the rule broken, "" when there is none.
func (l *Line) lotToReceive(spec *stock.LotSpec) (string, errs.Code) {
	var onRoad []string
	for _, r := range l.lots {
		if r.InTransit() > 0 {
			onRoad = append(onRoad, r.Number)
		}
	}
	if spec != nil {
		number := strings.TrimSpace(spec.Number)
		if number == "" || l.lotRecord(number, false) == nil {
			return "", LotNotInTransit
		}
		return number, ""
	}
	switch len(onRoad) {
	case 0:
		// Nothing on the road: the quantity check names the line.
		if len(l.lots) > 0 {
			return l.lots[0].Number, ""
		}
		return l.lot, ""
	case 1:
		return onRoad[0], ""
	}
	return "", LotAmbiguous
}

func (l *Line) lotMessage(problem errs.Code, spec *stock.LotSpec) string {
	var onRoad []string
	for _, r := range l.lots {
		if r.InTransit() > 0 {
			onRoad = append(onRoad, fmt.Sprintf("%q", r.Number))
		}
	}
	if problem == LotAmbiguous {
		return fmt.Sprintf("pieces of several lots are in transit (%s): name the lot", strings.Join(onRoad, ", "))
	}
	if len(l.lots) == 1 && l.lots[0].Number == "" {
		return fmt.Sprintf("lot %q was not shipped: the line's product travels without lots", spec.Number)
	}
	return fmt.Sprintf("lot %q was not shipped on this line", spec.Number)
}

func (r *Receiving) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	t := r.Transfer
	// The lines the checks let through still try the stock, so that the
	// answer names every line that cannot be received.
	checked, p, err := t.checkReceipt(r.Lines)
	if err != nil {
		return err
	}
	ref.TransferID = t.id
	rec := &Movement{TransferID: t.id, CreatedAt: r.Now, User: r.User}
	for i, rl := range r.Lines {
		l, lot := checked[i].line, checked[i].lot
		if l == nil {
			continue
		}
		prop := fmt.Sprintf("lines[%d]", i)
		if rl.At != nil {
			if err := rl.At.Validate(""); err != nil {
				if err := p.add(prop, l.id, err); err != nil {
					return err
				}
				continue
			}
		}
		loc, err := ws.Locate(l.articleDetailID, r.at(rl))
		if err == nil && loc.WarehouseID != t.destination {
			p.fail(WrongWarehouse, prop+".binLocation", "line %d: %s does not lie in the transfer's destination warehouse", l.id, loc)
			continue
		}
		if err == nil {
			loc, err = ws.TransferIn(l.articleDetailID, loc, rl.Quantity, lot, ref)
		}
		if err != nil {
			if err := p.add(prop, l.id, err); err != nil {
				return err
			}
			continue
		}
		rec.Lines = append(rec.Lines, MovedLine{LineID: l.id, ArticleDetailID: l.articleDetailID, Quantity: rl.Quantity,
			WarehouseID: loc.WarehouseID, BinLocationID: loc.BinLocationID, LotNumber: lot})
	}
	if err := p.err(); err != nil {
		return err
	}
	for i, rl := range r.Lines {
		checked[i].line.lotRecord(checked[i].lot, false).Received += rl.Quantity
	}
	t.afterReceipt()
	r.Result = rec
	return nil
}
