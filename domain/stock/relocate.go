package stock

import "github.com/shopstock/inventory/domain/errs"

// Relocate moves quantity of unreserved stock from one location to another,
// or with all every unreserved piece at the source (quantity is then
// ignored; nothing there moves 0 and succeeds). A warehouse source never
// takes from a destination bin inside it. It returns how much moved.
func (inv *Inventory) Relocate(article int64, from, to Location, quantity int, all bool, ref Reference) (int, error) {
	if err := inv.check(article, from); err != nil {
		return 0, err
	}
	if err := inv.check(article, to); err != nil {
		return 0, err
	}
	if !all && quantity <= 0 {
		return 0, errs.Invalidf("relocation quantity of article detail %d from %s to %s must be positive, got %d",
			article, from, to, quantity)
	}
	if from.WarehouseID == to.WarehouseID && from.BinLocationID == to.BinLocationID {
		return 0, errs.Invalidf("cannot relocate article detail %d from %s to the same location", article, from)
	}
	target, err := inv.inTarget(article, to)
	if err != nil {
		return 0, err
	}
	if !from.IsWarehouse() && target == from.BinLocationID {
		// A bin source whose warehouse destination puts the stock back on it.
		return 0, errs.Invalidf("cannot relocate article detail %d from %s to %s: it would go back to the same bin location",
			article, from, to)
	}
	except := int64(0)
	if from.IsWarehouse() && from.WarehouseID == to.WarehouseID {
		except = to.BinLocationID
	}
	sources := inv.sources(article, from, except)
	avail := available(sources)
	if all {
		quantity = avail
	}
	if quantity > avail {
		return 0, insufficient(article, from, quantity, avail)
	}
	if quantity == 0 {
		return 0, nil
	}
	steps := append(take(sources, quantity), step{to.WarehouseID, target, quantity})
	inv.apply(article, steps, EntryRelocation, ref)
	return quantity, nil
}
