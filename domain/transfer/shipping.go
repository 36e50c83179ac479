package transfer

import (
	"fmt"
	"time"

	"github.com/shopstock/inventory/domain/stock"
)

// ShipmentLine asks a line to ship quantity pieces, from a bin of the
// source warehouse when From is set, else by the stock-out strategy there.
type ShipmentLine struct {
	LineID   int64
	Quantity int
	From     *stock.LocationSpec
}

// Movement records one shipment or receipt of a transfer. It is a fact
// once it is stored: nothing changes it afterwards, so its fields are
// plain.
type Movement struct {
	ID         int64
	TransferID int64
	CreatedAt  time.Time
	User       string
	Lines      []MovedLine
}

// MovedLine is what one line moved from or to one bin, of one lot ("" for
// a product that is not lot-tracked).
type MovedLine struct {
	LineID          int64
	ArticleDetailID int64
	Quantity        int
	WarehouseID     int64
	BinLocationID   int64
	LotNumber       string
}

// Shipping sends pieces of a transfer on the road: every line or none.
// Each line's pieces leave the source through the stock engine
// (stock.WorkingSet.TransferOut: unreserved, unexpired pieces, first
// expiring first out, only the line's lot when it names one). Lines nil
// ships what every line has not shipped yet. Run leaves the record in
// Result.
type Shipping struct {
	Transfer *Transfer
	Lines    []ShipmentLine
	Now      time.Time
	User     string
	Result   *Movement
}

// lines are the lines asked for: those given, else what every line has
// left to ship.
func (s *Shipping) lines() []ShipmentLine {
	if s.Lines != nil {
		return s.Lines
	}
	var out []ShipmentLine
	for _, l := range s.Transfer.lines {
		if n := s.Transfer.LeftToShip(l); n > 0 {
			out = append(out, ShipmentLine{LineID: l.id, Quantity: n})
		}
	}
	return out
}

func (s *Shipping) from(l ShipmentLine) stock.LocationSpec {
	if l.From != nil {
		return *l.From
	}
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: s.Transfer.source}}
}

func (s *Shipping) Declare(sc *stock.Scope) {
	sc.AddLocation(stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: s.Transfer.source}})
	for _, sl := range s.lines() {
		if l, ok := s.Transfer.Line(sl.LineID); ok {
			sc.Add(l.articleDetailID, s.from(sl))
		}
	}
}

// CheckShipment tells whether the lines may ship: the transfer runs, it
// has something left to ship, and each line is one of the transfer's
// with a quantity of 1 up to what it has left to ship (a line named twice
// counts both). Every broken rule is reported at once, each naming its
// line's id.
func (t *Transfer) CheckShipment(lines []ShipmentLine, all bool) error {
	p, _, err := t.checkShipment(lines, all)
	if err != nil {
		return err
	}
	return p.err()
}

// checkShipment is CheckShipment's answer in parts: the problems of the
// lines, which lines have one, and the error of a transfer that ships
// nothing.
func (t *Transfer) checkShipment(lines []ShipmentLine, all bool) (*lineProblems, []bool, error) {
	if !t.status.running() {
		return nil, nil, t.notRunning("shipment")
	}
	p := &lineProblems{}
	bad := make([]bool, len(lines))
	switch {
	case all && len(lines) == 0:
		p.fail(NothingToShip, "lines", "transfer %s has nothing left to ship", t.number)
	case len(lines) == 0:
		p.fail("", "lines", "must contain at least one line")
	case len(lines) > MaxLines:
		p.fail("", "lines", "must contain at most %d lines, got %d", MaxLines, len(lines))
	}
	asked := map[int64]int{}
	for i, sl := range lines {
		prop := func(field string) string { return fmt.Sprintf("lines[%d].%s", i, field) }
		l, ok := t.Line(sl.LineID)
		if !ok || sl.LineID <= 0 {
			p.fail(UnknownLine, prop("lineId"), "transfer %s has no line %d", t.number, sl.LineID)
			bad[i] = true
			continue
		}
		left := t.LeftToShip(l) - asked[l.id]
		switch {
		case sl.Quantity < 1:
			p.fail(stock.QuantityOutOfRange, prop("quantity"), "line %d: must be at least 1", l.id)
			bad[i] = true
		case sl.Quantity > left:
			p.fail(OverShipment, prop("quantity"), "line %d is to move %d and shipped %d: at most %d more can be shipped, not %d",
				l.id, l.quantity, l.Shipped(), max(left, 0), sl.Quantity)
			bad[i] = true
		}
		asked[l.id] += max(sl.Quantity, 0)
	}
	return p, bad, nil
}

func (s *Shipping) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	t := s.Transfer
	lines := s.lines()
	// The lines the checks let through still try the stock, so that the
	// answer names every line that cannot ship, short or over-asked.
	p, bad, err := t.checkShipment(lines, s.Lines == nil)
	if err != nil {
		return err
	}
	ref.TransferID = t.id
	rec := &Movement{TransferID: t.id, CreatedAt: s.Now, User: s.User}
	type shipped struct {
		line  *Line
		taken []stock.Taken
	}
	var done []shipped
	for i, sl := range lines {
		if bad[i] {
			continue
		}
		l, _ := t.Line(sl.LineID)
		prop := fmt.Sprintf("lines[%d]", i)
		if sl.From != nil {
			if err := sl.From.Validate(""); err != nil {
				if err := p.add(prop, l.id, err); err != nil {
					return err
				}
				continue
			}
		}
		loc, err := ws.Locate(l.articleDetailID, s.from(sl))
		if err == nil && loc.WarehouseID != t.source {
			p.fail(WrongWarehouse, prop+".binLocation", "line %d: %s does not lie in the transfer's source warehouse", l.id, loc)
			continue
		}
		var taken []stock.Taken
		if err == nil {
			var lot *stock.LotSpec
			if l.lot != "" {
				lot = &stock.LotSpec{Number: l.lot}
			}
			taken, err = ws.TransferOut(l.articleDetailID, loc, sl.Quantity, lot, ref)
		}
		if err != nil {
			if err := p.add(prop, l.id, err); err != nil {
				return err
			}
			continue
		}
		done = append(done, shipped{l, taken})
	}
	// Lines that failed leave the others applied to the working set;
	// Apply takes them all back when Run fails.
	if err := p.err(); err != nil {
		return err
	}
	for _, d := range done {
		for _, tk := range d.taken {
			d.line.lotRecord(tk.Lot, true).Shipped += tk.Quantity
			rec.Lines = append(rec.Lines, MovedLine{LineID: d.line.id, ArticleDetailID: d.line.articleDetailID, Quantity: tk.Quantity,
				WarehouseID: tk.WarehouseID, BinLocationID: tk.BinLocationID, LotNumber: tk.Lot})
		}
	}
	if t.status == Open {
		t.status = InTransit
	}
	s.Result = rec
	return nil
}
