package stock

import "github.com/shopstock/inventory/domain/errs"

// Change adds quantity at a location (incoming) or, when negative, takes it
// away (outgoing); it never takes reserved stock.
func (inv *Inventory) Change(article int64, at Location, quantity int, ref Reference) error {
	if err := inv.check(article, at); err != nil {
		return err
	}
	if quantity == 0 {
		return errs.Invalidf("change quantity of article detail %d at %s must not be 0", article, at)
	}
	if quantity > 0 {
		bin, err := inv.inTarget(article, at)
		if err != nil {
			return err
		}
		inv.apply(article, []step{{at.WarehouseID, bin, quantity}}, EntryIncoming, ref)
		return nil
	}
	sources := inv.sources(article, at, 0)
	if avail := available(sources); -quantity > avail {
		return insufficient(article, at, -quantity, avail)
	}
	inv.apply(article, take(sources, -quantity), EntryOutgoing, ref)
	return nil
}
