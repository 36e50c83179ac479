package stock

import "github.com/shopstock/inventory/domain/errs"

// Set is a stocktake: on a bin it sets that mapping's stock, on a warehouse
// the article's total there (more goes in and less goes out by the default
// strategy). It stamps the stocktake on the mapping it set, on a warehouse on
// every mapping of the article there afterwards, even when no quantity
// changed and so no ledger entry is written.
func (inv *Inventory) Set(article int64, at Location, quantity int, ref Reference) error {
	if err := inv.check(article, at); err != nil {
		return err
	}
	if quantity < 0 {
		return errs.Invalidf("stocktake quantity of article detail %d at %s must not be negative, got %d",
			article, at, quantity)
	}
	if !at.IsWarehouse() {
		return inv.setBin(article, at, quantity, ref)
	}
	return inv.setWarehouse(article, at, quantity, ref)
}

func (inv *Inventory) setBin(article int64, at Location, quantity int, ref Reference) error {
	stock, reserved := 0, 0
	if m := inv.existing(article, at.BinLocationID); m != nil {
		stock, reserved = m.stock, m.reservedStock
	}
	if quantity < reserved {
		return errs.Invalidf("cannot set stock of article detail %d at %s to %d: %d are reserved",
			article, at, quantity, reserved)
	}
	inv.apply(article, []step{{at.WarehouseID, at.BinLocationID, quantity - stock}}, EntryStocktake, ref)
	inv.stamp(inv.mapping(article, at.WarehouseID, at.BinLocationID))
	return nil
}

func (inv *Inventory) setWarehouse(article int64, at Location, quantity int, ref Reference) error {
	total, reserved := 0, 0
	for _, m := range inv.inWarehouse(article, at.WarehouseID) {
		total += m.stock
		reserved += m.reservedStock
	}
	if quantity < reserved {
		return errs.Invalidf("cannot set stock of article detail %d at %s to %d: %d are reserved",
			article, at, quantity, reserved)
	}
	var steps []step
	switch diff := quantity - total; {
	case diff > 0:
		bin, err := inv.inTarget(article, at)
		if err != nil {
			return err
		}
		steps = []step{{at.WarehouseID, bin, diff}}
	case diff < 0:
		// quantity ≥ reserved, so the unreserved stock covers -diff.
		steps = take(inv.sources(article, at, 0), -diff)
	}
	inv.apply(article, steps, EntryStocktake, ref)
	for _, m := range inv.inWarehouse(article, at.WarehouseID) {
		inv.stamp(m)
	}
	return nil
}
