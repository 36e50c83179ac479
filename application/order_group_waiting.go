package application

// ShipmentsWaiting tells how many ShipOrder calls of this process wait for
// the shipment under way to end, to ship together in the next transaction.
func (a *App) ShipmentsWaiting() int { return a.shipping.waiting() }

// PickingListsWaiting tells how many ReservePickingList calls of this
// process wait for the reservation under way to end, to reserve together
// in the next transaction.
func (a *App) PickingListsWaiting() int { return a.reserving.waiting() }
