package stock

// StockAt is the stock of article at the location spec names, as the
// working set holds it now: on a bin, that mapping's stock; on a warehouse,
// the article's total there. It is how a preview shows what an operation
// did, so it fails as an operation at that location would when the article
// or the location does not exist; spec must have been declared in the scope.
func (ws *WorkingSet) StockAt(article int64, spec LocationSpec) (int, error) {
	at, err := ws.locate(article, spec, "")
	if err != nil {
		return 0, err
	}
	if err := ws.check(article, at); err != nil {
		return 0, err
	}
	if !at.IsWarehouse() {
		if m := ws.existing(article, at.BinLocationID); m != nil {
			return m.stock, nil
		}
		return 0, nil
	}
	total := 0
	for m := range ws.inWarehouse(article, at.WarehouseID) {
		total += m.stock
	}
	return total, nil
}
