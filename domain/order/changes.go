package order

// loadedOrder is what an order was when storage loaded it.
type loadedOrder struct {
	status Status
	demand map[int64]int
}

// StatusChange is the domain event of an order whose status changed: the
// change feed's order.statusChanged.
type StatusChange struct {
	OrderID  int64
	Number   string
	Status   Status
	Previous Status
}

// Changes is what the order changed since storage loaded it: the demand
// per product (Demand's difference; everything for an order that was not
// stored yet) and, when its status changed, the event that follows. A new
// order's status is no change: it is created with it.
func (o *Order) Changes() (demand map[int64]int, status *StatusChange) {
	var before map[int64]int
	if o.loaded != nil {
		before = o.loaded.demand
		if o.loaded.status != o.status {
			status = &StatusChange{OrderID: o.id, Number: o.number, Status: o.status, Previous: o.loaded.status}
		}
	}
	return o.demandChange(before), status
}

// IsNew tells whether the order was made here rather than loaded.
func (o *Order) IsNew() bool { return o.loaded == nil }
