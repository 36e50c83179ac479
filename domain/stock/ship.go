package stock

import "github.com/shopstock/inventory/domain/errs"

// Ship clears shipped stock from a location, by the default strategy when it
// is a warehouse.
func (inv *Inventory) Ship(article int64, from Location, quantity int, ref Reference) error {
	if err := inv.check(article, from); err != nil {
		return err
	}
	if quantity <= 0 {
		return errs.Invalidf("shipped quantity of article detail %d from %s must be positive, got %d",
			article, from, quantity)
	}
	sources := inv.sources(article, from, 0)
	if avail := available(sources); quantity > avail {
		return insufficient(article, from, quantity, avail)
	}
	inv.apply(article, take(sources, quantity), EntryShipment, ref)
	return nil
}
