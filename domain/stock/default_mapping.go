package stock

import "github.com/shopstock/inventory/domain/errs"

// SetDefault makes bin the article's default bin location in its warehouse,
// clearing the previous default there, or with isDefault false stops it being
// the default. It creates the mapping with stock 0 when needed. The unknown
// bin location is never a default; asking it not to be one changes nothing.
// The caller loads every mapping of the article in the bin's warehouse.
func (inv *Inventory) SetDefault(article int64, bin Bin, isDefault bool) error {
	if article <= 0 {
		return errs.Invalidf("article detail id must be positive, got %d", article)
	}
	if bin.ID <= 0 || bin.WarehouseID <= 0 {
		return errs.E(errs.Internal, "bin location %q is not resolved", bin.Code)
	}
	if known, ok := inv.bins[bin.ID]; ok && known.WarehouseID != bin.WarehouseID {
		return errs.E(errs.Internal, "bin location %d belongs to warehouse %d, not %d", bin.ID, known.WarehouseID, bin.WarehouseID)
	}
	isNull := bin.IsNull || inv.isNullBin(bin.WarehouseID, bin.ID)
	if isDefault && isNull {
		return errs.Invalidf("the unknown bin location of warehouse %d cannot be the default bin location of article detail %d",
			bin.WarehouseID, article)
	}
	if isNull {
		return nil
	}
	if _, ok := inv.bins[bin.ID]; !ok {
		inv.rememberBin(bin)
	}
	if !isDefault {
		if m := inv.existing(article, bin.ID); m != nil && m.defaultMapping {
			m.defaultMapping = false
			inv.touched[m] = true
		}
		return nil
	}
	for _, m := range inv.inWarehouse(article, bin.WarehouseID) {
		if m.defaultMapping && m.binLocationID != bin.ID {
			m.defaultMapping = false
			inv.touched[m] = true
		}
	}
	if m := inv.mapping(article, bin.WarehouseID, bin.ID); !m.defaultMapping {
		m.defaultMapping = true
		inv.touched[m] = true
	}
	return nil
}
