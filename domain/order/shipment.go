package order

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// Shipment ships everything an order still has to ship from one location,
// all or nothing: a stock operation that clears each position's stock and
// then marks the order shipped. When any position lacks stock, it fails
// with one error naming every shortfall (the working set takes back what the
// other positions took).
type Shipment struct {
	Order *Order
	From  stock.LocationSpec
}

func (s Shipment) Declare(sc *stock.Scope) {
	lines, _ := s.Order.PlanFullShipment()
	for _, l := range lines {
		sc.Add(l.ArticleDetailID, s.From)
	}
	s.Order.declareHolds(sc)
}

func (s Shipment) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	o := s.Order
	lines, err := o.PlanFullShipment()
	if err != nil {
		return err
	}
	if _, err := ws.Resolve(s.From); err != nil {
		return err
	}
	var shortfalls []string
	var fields []errs.FieldError
	restore := o.keepHolds()
	for _, l := range lines {
		ref.OrderID, ref.OrderDetailID = o.id, l.DetailID
		d, _ := o.Detail(l.DetailID)
		err := d.shipHolding(ws, s.From, l.Quantity, nil, ref)
		if err == nil {
			continue
		}
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.Invalid {
			return err
		}
		shortfalls = append(shortfalls, fmt.Sprintf("order detail %d: %s", l.DetailID, e.Message))
		fields = append(fields, errs.FieldError{Property: o.detailProperty(l.DetailID), Message: e.Message})
	}
	if len(shortfalls) > 0 {
		restore()
		e := errs.Invalidf("order %s cannot be shipped, nothing was changed: %s", o.number, strings.Join(shortfalls, "; ")).
			Breaks(NotShippable)
		e.Fields = fields
		return e
	}
	o.ShipFully()
	return o.trim(ws)
}

// shipHolding clears quantity pieces of the position from a location: its
// reservations there first, then unreserved stock. The reservations it
// shipped shrink (the order's trim releases any that then exceed what is
// left to ship).
func (d *Detail) shipHolding(ws *stock.WorkingSet, from stock.LocationSpec, quantity int, lot *stock.LotSpec, ref stock.Reference) error {
	at, err := ws.Locate(d.articleDetailID, from)
	if err != nil {
		return err
	}
	used, err := ws.ShipHolding(d.articleDetailID, at, quantity, d.reservations, lot, ref)
	if err != nil {
		return err
	}
	for i, n := range used {
		d.reservations[i].Quantity -= n
	}
	d.reservations = slices.DeleteFunc(d.reservations, func(h stock.Hold) bool { return h.Quantity == 0 })
	return nil
}

// detailProperty names a position as the client pushed it.
func (o *Order) detailProperty(detailID int64) string {
	for i, d := range o.details {
		if d.id == detailID {
			return fmt.Sprintf("details[%d]", i)
		}
	}
	return "details"
}

// DetailShipment ships Quantity more pieces of one position from a
// location: one operation of a detail shipping batch. Order is the order
// that holds the position, nil when none does. The order's rules are
// checked before stock moves and the shipment is recorded after.
type DetailShipment struct {
	Order    *Order
	DetailID int64
	Quantity int
	From     stock.LocationSpec
	// Lot names the lot to ship (nil: reserved lots first, then FEFO).
	Lot *stock.LotSpec
}

func (s DetailShipment) Declare(sc *stock.Scope) {
	if s.Order == nil {
		return
	}
	if d, ok := s.Order.Detail(s.DetailID); ok {
		sc.Add(d.articleDetailID, s.From)
		for _, h := range d.reservations {
			sc.Add(d.articleDetailID, h.Spec())
		}
	}
}

func (s DetailShipment) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	if s.DetailID <= 0 {
		return errs.Invalidf("orderDetailId must be a positive integer").On("orderDetailId").Breaks(UnknownDetail)
	}
	if s.Order == nil {
		return errs.Invalidf("order detail %d does not exist", s.DetailID).On("orderDetailId").Breaks(UnknownDetail).
			About(errs.Subject{OrderDetail: s.DetailID})
	}
	if err := s.Order.CanShipDetail(s.DetailID, s.Quantity); err != nil {
		return err
	}
	d, _ := s.Order.Detail(s.DetailID)
	ref.OrderID, ref.OrderDetailID = s.Order.id, s.DetailID
	if err := d.shipHolding(ws, s.From, s.Quantity, s.Lot, ref); err != nil {
		return err
	}
	if err := s.Order.ShipDetail(s.DetailID, s.Quantity); err != nil {
		return err
	}
	return s.Order.trim(ws)
}
