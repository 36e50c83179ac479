package order

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// ReturnLine is what a customer sent back of one position.
type ReturnLine struct {
	OrderDetailID int64
	Quantity      int
	// Lot is the lot restocked pieces go back into (nil: the one lot the
	// position shipped from; see ShippedLots).
	Lot *stock.LotSpec
}

// Return records one return shipment of an order. It is a fact once it is
// stored: nothing changes it afterwards, so its fields are plain.
type Return struct {
	ID        int64
	OrderID   int64
	CreatedAt time.Time
	User      string
	Restock   bool
	Lines     []ReturnedLine
}

// ReturnedLine is one position of a return; WarehouseID and BinLocationID
// say where the pieces went back into stock, 0 when they were not restocked.
type ReturnedLine struct {
	OrderDetailID   int64
	ArticleDetailID int64
	Quantity        int
	WarehouseID     int64
	BinLocationID   int64
	// LotNumber is the lot restocked, "" when none.
	LotNumber string
}

// ReturnShipment takes pieces back from the customer: each quantity is
// 1..(shipped − returned) of its position. With To (restock), the pieces go
// back into stock there, with ledger entries of type return; without, no
// stock moves (damaged goods). Run leaves the record in Result.
type ReturnShipment struct {
	Order *Order
	Lines []ReturnLine
	// To is where restocked pieces go; nil: they are not restocked.
	To *stock.LocationSpec
	// ShippedLots are, per order detail, the lots its shipments took
	// pieces of (from the ledger): a restocked return of a lot-tracked
	// product that names no lot goes back into the one lot its position
	// shipped from.
	ShippedLots map[int64][]string
	Now         time.Time
	User        string
	Result      *Return
}

func (r *ReturnShipment) Declare(sc *stock.Scope) {
	if r.To == nil {
		return
	}
	sc.AddLocation(*r.To)
	for _, l := range r.Lines {
		if d, ok := r.Order.Detail(l.OrderDetailID); ok {
			sc.Add(d.articleDetailID, *r.To)
		}
	}
}

func (r *ReturnShipment) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	o := r.Order
	if err := o.CheckReturn(r.Lines); err != nil {
		return err
	}
	var at stock.Location
	if r.To != nil {
		var err error
		if at, err = ws.Resolve(*r.To); err != nil {
			return err
		}
	}
	rec := &Return{OrderID: o.id, CreatedAt: r.Now, User: r.User, Restock: r.To != nil}
	for i, l := range r.Lines {
		d, _ := o.Detail(l.OrderDetailID)
		line := ReturnedLine{OrderDetailID: d.id, ArticleDetailID: d.articleDetailID, Quantity: l.Quantity}
		if r.To != nil {
			ref.OrderID, ref.OrderDetailID = o.id, d.id
			lot, err := r.returnLot(ws, d, l, i)
			if err != nil {
				return err
			}
			loc, err := ws.Locate(d.articleDetailID, *r.To)
			if err != nil {
				return err
			}
			if loc, err = ws.Restock(d.articleDetailID, loc, l.Quantity, lot, ref); err != nil {
				// The lot is the line's own; the location is the return's.
				if p := errs.PropertyOf(err); p == "lot" || strings.HasPrefix(p, "lot.") {
					err = errs.Within(fmt.Sprintf("details[%d]", i), err)
				}
				return err
			}
			line.WarehouseID, line.BinLocationID, line.LotNumber = at.WarehouseID, loc.BinLocationID, ws.LotNumber(lot)
		}
		rec.Lines = append(rec.Lines, line)
	}
	for _, l := range r.Lines {
		d, _ := o.Detail(l.OrderDetailID)
		d.returned += l.Quantity
	}
	r.Result = rec
	return nil
}

// CheckReturn tells whether the lines may come back: at least one, each of
// a position of this order, each quantity at least 1 and all of a
// position's lines together at most what was shipped and not yet returned.
// Every broken rule is reported at once.
func (o *Order) CheckReturn(lines []ReturnLine) error {
	var bad []errs.FieldError
	var code errs.Code // the rule broken, when every failure broke the same
	fail := func(rule errs.Code, property, format string, args ...any) {
		if len(bad) == 0 {
			code = rule
		} else if code != rule {
			code = ""
		}
		bad = append(bad, errs.FieldError{Property: property, Message: fmt.Sprintf(format, args...)})
	}
	if len(lines) == 0 {
		fail("", "details", "must contain at least one returned position")
	}
	taken := map[*Detail]int{}
	for i, l := range lines {
		prop := func(field string) string { return fmt.Sprintf("details[%d].%s", i, field) }
		d, ok := o.Detail(l.OrderDetailID)
		if !ok || l.OrderDetailID <= 0 {
			fail(UnknownDetail, prop("orderDetailId"), "order %s has no order detail %d", o.number, l.OrderDetailID)
			continue
		}
		left := d.Returnable() - taken[d]
		switch {
		case l.Quantity < 1:
			fail(stock.QuantityOutOfRange, prop("quantity"), "must be at least 1")
		case l.Quantity > left:
			fail(ExceedsReturnable, prop("quantity"), "order detail %d has %d shipped and %d returned: at most %d more can come back, not %d",
				d.id, d.shipped, d.returned+taken[d], left, l.Quantity)
		default:
			taken[d] += l.Quantity
		}
	}
	if len(bad) > 0 {
		return errs.InvalidFields(bad...).Breaks(code)
	}
	return nil
}

// RestockTo says where the pieces go, as a return asks: restock with a
// location given goes there, restock without one to the default
// return-shipment warehouse (defaultWarehouse, 0 when there is none), and
// no restock names no location, for the pieces go nowhere.
func (r *ReturnShipment) RestockTo(restock bool, given *stock.LocationSpec, defaultWarehouse int64) error {
	switch {
	case !restock && given != nil:
		return errs.Invalidf("warehouse and binLocation say where restocked pieces go: leave them out when restock is false").
			On("restock").Breaks(RestockElsewhere)
	case !restock:
		r.To = nil
	case given != nil:
		if err := given.Validate(""); err != nil {
			return err
		}
		r.To = given
	case defaultWarehouse == 0:
		return errs.Invalidf("there is no default return-shipment warehouse to restock into: create a warehouse, name a location or send restock false").
			On("restock").Breaks(NoReturnWarehouse)
	default:
		r.To = &stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: defaultWarehouse}}
	}
	return nil
}

// returnLot is the lot restocked pieces of line i go back into: the one
// it names, else, for a lot-tracked product, the one lot its position
// shipped from; a position that shipped from several lots (or none) needs
// the line to name it.
func (r *ReturnShipment) returnLot(ws *stock.WorkingSet, d *Detail, l ReturnLine, i int) (*stock.LotSpec, error) {
	if l.Lot != nil || !ws.LotTracked(d.articleDetailID) {
		return l.Lot, nil
	}
	lots := r.ShippedLots[d.id]
	if len(lots) == 1 {
		return &stock.LotSpec{Number: lots[0]}, nil
	}
	shipped := "no lot"
	if len(lots) > 1 {
		shipped = "lots " + strings.Join(lots, ", ")
	}
	return nil, errs.Invalidf("lot required: order detail %d shipped from %s; name the lot the returned pieces go back into", d.id, shipped).
		On(fmt.Sprintf("details[%d].lot", i)).Breaks(stock.LotRequired).About(errs.Subject{OrderDetail: d.id, ArticleDetail: d.articleDetailID})
}
