package purchase

// loadedOrder is what a purchase order was when storage loaded it.
type loadedOrder struct {
	status   Status
	incoming map[int64]int
}

// StatusChange is the domain event of a purchase order whose status
// changed: the change feed's purchaseOrder.statusChanged.
type StatusChange struct {
	PurchaseOrderID int64
	Number          string
	Status          Status
	Previous        Status
}

// Changes is what the order changed since storage loaded it: how its
// Incoming changed per product (all of it for an order not stored yet;
// all of it gone for a deleted one), and, when its status changed, the
// event that follows. A new or deleted order has no status event.
func (o *Order) Changes() (incoming map[int64]int, status *StatusChange) {
	var before map[int64]int
	if o.loaded != nil {
		before = o.loaded.incoming
	}
	after := o.Incoming()
	if o.deleted {
		after = nil
	}
	if o.loaded != nil && !o.deleted && o.loaded.status != o.status {
		status = &StatusChange{PurchaseOrderID: o.id, Number: o.number, Status: o.status, Previous: o.loaded.status}
	}
	return Difference(before, after), status
}
