package application

// ShipmentsWaiting tells how many ShipOrder calls of this process wait for
// the shipment under way to end, to ship together in the next transaction.
func (a *App) ShipmentsWaiting() int {
	a.shipping.mu.Lock()
	defer a.shipping.mu.Unlock()
	return len(a.shipping.queue)
}
