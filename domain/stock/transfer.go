package stock

import "github.com/shopstock/inventory/domain/errs"

// Taken is what one stock-out took from one bin: how many pieces of which
// lot ("" for a product that is not lot-tracked).
type Taken struct {
	WarehouseID   int64
	BinLocationID int64
	Lot           string
	Quantity      int
}

// TransferOut takes quantity pieces of article off a location for the
// road between two warehouses: unreserved and unexpired pieces only, by the
// stock-out strategy (on a lot-tracked product first expiring first out, or
// only the named lot), with ledger entries of type transferOut. It returns
// what it took from each bin, in strategy order; not enough such pieces
// fails like any stock-out and takes nothing.
func (ws *WorkingSet) TransferOut(article int64, from Location, quantity int, lot *LotSpec, ref Reference) ([]Taken, error) {
	if err := ws.check(article, from); err != nil {
		return nil, err
	}
	if err := ws.unlocked(from, ref); err != nil {
		return nil, err
	}
	if quantity <= 0 {
		return nil, errs.Invalidf("shipped quantity of article detail %d from %s must be positive, got %d",
			article, from, quantity).On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, from))
	}
	c, err := ws.lotOut(article, lot, false)
	if err != nil {
		return nil, err
	}
	sources := ws.sources(article, from, 0)
	if avail := ws.available(article, sources, c); quantity > avail {
		return nil, insufficient(article, from, quantity, avail)
	}
	steps := ws.take(article, sources, quantity, c)
	if err := ws.apply(article, steps, EntryTransferOut, ref); err != nil {
		return nil, err
	}
	out := make([]Taken, 0, len(steps))
	for _, s := range steps {
		out = append(out, Taken{WarehouseID: s.warehouse, BinLocationID: s.bin, Lot: s.lot, Quantity: -s.delta})
	}
	return out, nil
}

// TransferIn books pieces that arrived from another warehouse in at a
// location (a warehouse: the article's default bin there, else its unknown
// bin location), in the lot they travelled with ("" for none), with a
// ledger entry of type transferIn; it tells the bin they went to.
func (ws *WorkingSet) TransferIn(article int64, at Location, quantity int, lot string, ref Reference) (Location, error) {
	return ws.transferIn(article, at, quantity, lot, EntryTransferIn, ref)
}

// TransferBack books pieces of a cancelled transfer back in at its source,
// as TransferIn does, with a ledger entry of type transferReturn.
func (ws *WorkingSet) TransferBack(article int64, at Location, quantity int, lot string, ref Reference) (Location, error) {
	return ws.transferIn(article, at, quantity, lot, EntryTransferReturn, ref)
}

func (ws *WorkingSet) transferIn(article int64, at Location, quantity int, lot string, typ EntryType, ref Reference) (Location, error) {
	if err := ws.check(article, at); err != nil {
		return Location{}, err
	}
	if quantity <= 0 {
		return Location{}, errs.Invalidf("received quantity of article detail %d must be positive, got %d", article, quantity).
			On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, at))
	}
	var spec *LotSpec
	if lot != "" {
		spec = &LotSpec{Number: lot}
	}
	return ws.stockIn(article, at, quantity, spec, typ, ref)
}
