package transfer

import (
	"fmt"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// What becomes of the pieces in transit when a transfer is cancelled.
const (
	// ReturnInTransit books them back into the source.
	ReturnInTransit = "return"
	// LoseInTransit writes them off: they count as lost on their line.
	LoseInTransit = "lost"
)

// Change is what a client may change on a transfer: only its status, to
// Cancelled, saying what becomes of the pieces in transit ("" when it says
// nothing).
type Change struct {
	Status    *string
	InTransit string
}

// CheckCancel tells whether the change cancels the transfer: only
// Cancelled can be set, only on a transfer that runs, and one with pieces
// in transit needs to say what becomes of them. Every broken rule is
// reported at once.
func (t *Transfer) CheckCancel(c Change) error {
	var bad []errs.FieldError
	rule := errs.Code("")
	switch {
	case c.Status == nil:
		bad = append(bad, errs.FieldError{Property: "status", Message: fmt.Sprintf("is required: only %q can be set", Cancelled)})
	case *c.Status != string(Cancelled):
		bad = append(bad, errs.FieldError{Property: "status", Message: fmt.Sprintf("only %q can be set by hand, not %q", Cancelled, *c.Status)})
	case !t.status.running():
		bad = append(bad, errs.FieldError{Property: "status", Message: fmt.Sprintf("transfer %s is %s and cannot be cancelled", t.number, t.status)})
		rule = NotRunning
	}
	if c.InTransit != "" && c.InTransit != ReturnInTransit && c.InTransit != LoseInTransit {
		bad = append(bad, errs.FieldError{Property: "inTransit", Message: fmt.Sprintf("must be %q or %q, not %q", ReturnInTransit, LoseInTransit, c.InTransit)})
	} else if len(bad) == 0 && c.InTransit == "" && len(t.InTransit()) > 0 {
		n := 0
		for _, q := range t.InTransit() {
			n += q
		}
		bad = append(bad, errs.FieldError{Property: "inTransit", Message: fmt.Sprintf("transfer %s has %d pieces in transit: say whether they %q to the source or are %q",
			t.number, n, ReturnInTransit, LoseInTransit)})
		rule = InTransitOpen
	}
	if len(bad) > 0 {
		return errs.InvalidFields(bad...).Breaks(rule)
	}
	return nil
}

// Cancelling cancels a transfer. Pieces in transit go back into the source
// (the product's default bin there, else its unknown bin location), each
// in its lot, with ledger entries of type transferReturn, or are written
// off as lost on their line, as the change says.
type Cancelling struct {
	Transfer *Transfer
	Change   Change
}

// returns tells whether cancelling moves stock back into the source.
func (c *Cancelling) returns() bool {
	return c.Change.InTransit == ReturnInTransit && len(c.Transfer.InTransit()) > 0
}

func (c *Cancelling) source() stock.LocationSpec {
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: c.Transfer.source}}
}

func (c *Cancelling) Declare(sc *stock.Scope) {
	if !c.returns() {
		return
	}
	for _, l := range c.Transfer.lines {
		if l.InTransit() > 0 {
			sc.Add(l.articleDetailID, c.source())
		}
	}
}

func (c *Cancelling) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	t := c.Transfer
	if err := t.CheckCancel(c.Change); err != nil {
		return err
	}
	ref.TransferID = t.id
	if c.returns() {
		var p lineProblems
		for i, l := range t.lines {
			if l.InTransit() == 0 {
				// Not declared: nothing of it goes back.
				continue
			}
			loc, err := ws.Locate(l.articleDetailID, c.source())
			for _, r := range l.lots {
				if err != nil || r.InTransit() == 0 {
					continue
				}
				_, err = ws.TransferBack(l.articleDetailID, loc, r.InTransit(), r.Number, ref)
			}
			if err != nil {
				if err := p.add(fmt.Sprintf("lines[%d]", i), l.id, err); err != nil {
					return err
				}
			}
		}
		if err := p.err(); err != nil {
			return err
		}
	}
	for _, l := range t.lines {
		for _, r := range l.lots {
			if n := r.InTransit(); n > 0 && c.Change.InTransit == ReturnInTransit {
				r.Returned += n
			} else if n > 0 {
				r.Lost += n
			}
		}
	}
	t.status = Cancelled
	return nil
}
