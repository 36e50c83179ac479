package stock

// ReserveUpTo holds as many as quantity unreserved pieces of article in a
// warehouse, never on the bin except (a bin found short is not asked
// again), by the stock-out strategy, and returns the holds it made. It
// reserves what there is when there is less: a picker's shortfall is met
// as far as the other bins allow, and the rest stays short.
func (ws *WorkingSet) ReserveUpTo(article int64, warehouse Location, except int64, quantity int) ([]Hold, error) {
	at := warehouse
	at.BinLocationID = 0
	if err := ws.check(article, at); err != nil {
		return nil, err
	}
	if quantity <= 0 {
		return nil, nil
	}
	c := lotChoice{tracked: ws.tracked[article]}
	sources := ws.sources(article, at, except)
	quantity = min(quantity, ws.available(article, sources, c))
	if quantity == 0 {
		return nil, nil
	}
	var holds []Hold
	for _, s := range ws.take(article, sources, quantity, c) {
		m := ws.onBin[mappingKey{article, s.bin}]
		ws.touch(m)
		m.reservedStock += -s.delta
		if s.lot != "" {
			m.addLot(s.lot, 0, -s.delta)
		}
		holds = append(holds, Hold{WarehouseID: s.warehouse, BinLocationID: s.bin, Quantity: -s.delta, Lot: s.lot})
	}
	return holds, nil
}
