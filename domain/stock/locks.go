package stock

import (
	"cmp"
	"slices"

	"github.com/shopstock/inventory/domain/errs"
)

// BinLocked: an operation would move stock on a bin that an open count
// locks. It is a conflict with that count, not a fault of the request:
// once the count is applied or cancelled, the same operation succeeds.
const BinLocked errs.Code = "bin_locked"

// Bins that an open count locks (Bin.LockedBy) keep their stock still
// until the count ends: an operation that names one fails with a conflict
// naming the bin and the count, the strategy passes them by when only a
// warehouse is named (sources), and apply refuses any step on one, whoever
// planned it. Reservations move no stock and are not refused. The count's
// own booking (Reference.CountID) is the one movement allowed there.

// unlocked refuses a bin location that an open count other than ref's
// locks; a warehouse is never refused here (its locked bins are passed by).
func (ws *WorkingSet) unlocked(at Location, ref Reference) error {
	if !ws.anyLocked || at.IsWarehouse() {
		return nil
	}
	b, ok := ws.bin(at.BinLocationID)
	if !ok || b.LockedBy == 0 || b.LockedBy == ref.CountID {
		return nil
	}
	if at.Label == "" {
		w, known := ws.warehouses[b.WarehouseID]
		at.Label = binLabel(b.Code, w.Code, known)
	}
	return errs.Conflictf("%s is locked by count %d: no stock moves there until the count is applied or cancelled", at, b.LockedBy).
		On("binLocation").Breaks(BinLocked).About(errs.Subject{BinLocation: b.ID, Warehouse: b.WarehouseID})
}

// unlockedWithin refuses a location whose stock of article lies on a
// locked bin: the bin itself, or on a warehouse any bin of it that holds
// the product (a stocktake of a warehouse counts every one of them).
func (ws *WorkingSet) unlockedWithin(article int64, at Location, ref Reference) error {
	if !ws.anyLocked {
		return nil
	}
	if !at.IsWarehouse() {
		return ws.unlocked(at, ref)
	}
	var bins []int64
	for m := range ws.inWarehouse(article, at.WarehouseID) {
		bins = append(bins, m.binLocationID)
	}
	slices.SortFunc(bins, cmp.Compare[int64])
	for _, bin := range bins {
		if err := ws.unlocked(Location{WarehouseID: at.WarehouseID, BinLocationID: bin}, ref); err != nil {
			return err
		}
	}
	return nil
}

// LockedBy is the open count that locks the bin, 0 when none does (or the
// working set does not know the bin).
func (ws *WorkingSet) LockedBy(bin int64) int64 {
	b, _ := ws.bin(bin)
	return b.LockedBy
}

// Lock tells the working set which bins open counts lock (Bin.LockedBy),
// as storage read them after the products' lock: a count that locked a
// bin before that lock was granted is seen. Bins it did not know yet are
// learnt by id.
func (ws *WorkingSet) Lock(locked []Bin) {
	for _, l := range locked {
		b, ok := ws.bins[l.ID]
		if !ok {
			ws.knowBin(l)
			continue
		}
		b.LockedBy = l.LockedBy
		ws.bins[l.ID] = b
		ws.anyLocked = ws.anyLocked || b.LockedBy != 0
		if byCode := ws.binCodes[b.WarehouseID]; byCode != nil {
			if c, ok := byCode[b.Code]; ok && c.ID == b.ID {
				byCode[b.Code] = b
			}
		}
	}
}
