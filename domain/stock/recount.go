package stock

import "github.com/shopstock/inventory/domain/errs"

// What a count books: it corrects one product (and lot) on one bin by the
// difference between what it counted and what its snapshot held, on top of
// whatever moved there since the snapshot.

// On is what article holds on a bin location: its stock and reserved
// pieces, or those of one lot ("" for the product's). The bin's stock of
// the article must have been loaded.
func (ws *WorkingSet) On(article int64, at Location, lot string) (stock, reserved int, err error) {
	if err := ws.check(article, at); err != nil {
		return 0, 0, err
	}
	if m := ws.existing(article, at.BinLocationID); m != nil {
		stock, reserved = m.counted(lot)
	}
	return stock, reserved, nil
}

// Recount moves the stock of article (of the lot named, on a lot-tracked
// product) on a bin by delta, with a ledger entry of type count (none when
// nothing moves), and stamps the stocktake on the mapping. The stock never
// goes below 0: a delta that would take it there takes it to 0. Reserved
// pieces above the result must have been released first (the order's
// holds are the holder's to release). It tells how much the stock moved.
// A bin locked by a count is open to that count's own booking only
// (Reference.CountID).
func (ws *WorkingSet) Recount(article int64, at Location, lot *LotSpec, delta int, ref Reference) (int, error) {
	if err := ws.check(article, at); err != nil {
		return 0, err
	}
	if at.IsWarehouse() {
		return 0, errs.E(errs.Internal, "a count books on a bin location, not on %s", at)
	}
	number, err := ws.lotIn(article, lot, delta > 0)
	if err != nil {
		return 0, err
	}
	stock, reserved, onBin := 0, 0, 0
	if m := ws.existing(article, at.BinLocationID); m != nil {
		stock, reserved = m.counted(number)
		onBin = m.stock
	}
	delta = max(delta, -stock)
	if stock+delta < reserved {
		return 0, errs.E(errs.Internal, "article detail %d at %s: a count takes the stock to %d while %d are still reserved",
			article, at, stock+delta, reserved)
	}
	if err := checkLimit(article, at, onBin, delta); err != nil {
		return 0, err
	}
	if err := ws.apply(article, []step{{at.WarehouseID, at.BinLocationID, delta, number}}, EntryCount, ref); err != nil {
		return 0, err
	}
	if m := ws.existing(article, at.BinLocationID); m != nil {
		ws.stocktake(m)
	}
	return delta, nil
}
