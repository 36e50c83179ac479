package order

import (
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// ShipLine is the stock one position needs to leave the warehouse.
type ShipLine struct {
	DetailID        int64
	ArticleDetailID int64
	Quantity        int
}

// ShipFrom is the warehouse a shipment or a picking list takes stock from:
// the given one, else the default warehouse (defaultWarehouse, 0 when
// there is none).
func ShipFrom(given *stock.WarehouseSpec, defaultWarehouse int64) (stock.LocationSpec, error) {
	if given != nil {
		spec := stock.LocationSpec{Warehouse: given}
		return spec, spec.Validate("")
	}
	if defaultWarehouse == 0 {
		return stock.LocationSpec{}, errs.Invalidf("there is no default warehouse to ship from: create a warehouse or name one").
			On("warehouse").Breaks(NoDefaultWarehouse)
	}
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: defaultWarehouse}}, nil
}

// PlanFullShipment says what shipping the whole order takes: one line per
// position that is not cancelled and still has something to ship. The caller
// clears that stock first and calls ShipFully only when all of it was there,
// which keeps the full shipment all or nothing. No lines means the order is
// already fully shipped, and shipping it again is a no-op.
func (o *Order) PlanFullShipment() ([]ShipLine, error) {
	if o.status == StatusCancelled {
		return nil, errs.Invalidf("order %s is cancelled", o.number).Breaks(CancelledOrder)
	}
	lines := []ShipLine{}
	for _, d := range o.details {
		if n := o.Outstanding(d); n > 0 {
			lines = append(lines, ShipLine{DetailID: d.id, ArticleDetailID: d.articleDetailID, Quantity: n})
		}
	}
	return lines, nil
}

// ShipFully marks every position that is not cancelled as shipped and
// Completed, and the order Completely delivered. It reports whether anything
// changed: false for an order that was already fully shipped, which the
// caller must leave alone (no ledger entries, no status mail), and false for a
// cancelled order, which PlanFullShipment has already refused.
func (o *Order) ShipFully() bool {
	lines, err := o.PlanFullShipment()
	if err != nil || len(lines) == 0 {
		return false
	}
	for _, d := range o.details {
		if d.status == DetailCancelled {
			continue
		}
		d.shipped = d.quantity
		d.status = DetailCompleted
	}
	o.status = StatusCompletelyDelivered
	return true
}

// ShipDetail records that quantity more pieces of one position left the
// warehouse. It checks everything before it changes anything, so an error
// leaves the order as it was and a batch can go on with its next operation.
func (o *Order) ShipDetail(detailID int64, quantity int) error {
	if err := o.CanShipDetail(detailID, quantity); err != nil {
		return err
	}
	d, _ := o.Detail(detailID)
	d.shipped += quantity
	if d.Remaining() == 0 {
		d.status = DetailCompleted
	}
	o.status = StatusPartiallyDelivered
	if o.fullyShipped() {
		o.status = StatusCompletelyDelivered
	}
	return nil
}

// CanShipDetail tells whether ShipDetail would accept the shipment, without
// changing anything, so that a use case can check the order before it moves
// stock and apply the shipment after.
func (o *Order) CanShipDetail(detailID int64, quantity int) error {
	d, ok := o.Detail(detailID)
	if !ok {
		return errs.Invalidf("order %s has no order detail %d", o.number, detailID).
			On("orderDetailId").Breaks(UnknownDetail).About(errs.Subject{OrderDetail: detailID})
	}
	about := errs.Subject{OrderDetail: detailID, ArticleDetail: d.articleDetailID}
	if o.status == StatusCancelled {
		return errs.Invalidf("order %s is cancelled", o.number).Breaks(CancelledOrder).About(about)
	}
	if d.status == DetailCancelled {
		return errs.Invalidf("order detail %d is cancelled", detailID).On("orderDetailId").Breaks(CancelledDetail).About(about)
	}
	if quantity < 1 {
		return errs.Invalidf("quantity must be at least 1").On("quantity").Breaks(stock.QuantityOutOfRange).About(about)
	}
	if quantity > d.Remaining() {
		return errs.Invalidf("quantity %d exceeds the remaining quantity %d of order detail %d", quantity, d.Remaining(), detailID).
			On("quantity").Breaks(ExceedsOutstanding).About(about)
	}
	return nil
}

// fullyShipped reports whether every position that is not cancelled has
// shipped its whole quantity.
func (o *Order) fullyShipped() bool {
	for _, d := range o.details {
		if d.status != DetailCancelled && d.Remaining() > 0 {
			return false
		}
	}
	return true
}

// Outstanding is what position d of the order still has to ship: its
// remaining quantity, or nothing when the position or the whole order is
// cancelled. It is the one definition of "still to ship": availableStock
// subtracts its sum, an article detail with any is not deletable, and
// shipping ships it.
func (o *Order) Outstanding(d *Detail) int {
	if o.status == StatusCancelled || d.status == DetailCancelled {
		return 0
	}
	return max(d.Remaining(), 0)
}
