package order

import "github.com/shopstock/inventory/domain/errs"

// The rules of orders an error can break, as errs.Code (stock's own rules,
// such as stock.InsufficientStock, keep their codes inside an order's
// errors).
const (
	CancelledOrder  errs.Code = "order_cancelled"
	CancelledDetail errs.Code = "order_detail_cancelled"
	UnknownDetail   errs.Code = "unknown_order_detail"
	// ExceedsOutstanding: shipping more than a position still has to ship.
	ExceedsOutstanding errs.Code = "exceeds_outstanding"
	// ExceedsReturnable: taking back more than was shipped and not returned.
	ExceedsReturnable errs.Code = "exceeds_returnable"
	// NotShippable: a whole-order shipment that some positions cannot make.
	NotShippable errs.Code = "order_not_shippable"
	// NotReservable: a picking list that some positions cannot reserve.
	NotReservable errs.Code = "order_not_reservable"
	// RestockElsewhere: a return names where restocked pieces go but
	// restocks nothing.
	RestockElsewhere errs.Code = "restock_location_without_restock"
	// NoDefaultWarehouse: nothing names the warehouse to ship from.
	NoDefaultWarehouse errs.Code = "no_default_warehouse"
	// NoReturnWarehouse: pieces to restock and nowhere to put them.
	NoReturnWarehouse errs.Code = "no_return_warehouse"
)
