package stock

import (
	"slices"

	"github.com/shopstock/inventory/domain/errs"
)

// Relocate moves Quantity of unreserved stock from one location to another,
// or with All every unreserved piece at the source (Quantity is then
// ignored; nothing there moves 0 and succeeds). A warehouse source never
// takes from a destination bin inside it.
type Relocate struct {
	ArticleDetailID int64
	From, To        LocationSpec
	Quantity        int
	All             bool
	// Lot names the lot the pieces belong to (nil: none named).
	Lot *LotSpec
}

func (r Relocate) Declare(s *Scope) {
	s.Add(r.ArticleDetailID, r.From)
	s.Add(r.ArticleDetailID, r.To)
}

func (r Relocate) Run(ws *WorkingSet, ref Reference) error {
	from, err := ws.locate(r.ArticleDetailID, r.From, "source")
	if err != nil {
		return err
	}
	to, err := ws.locate(r.ArticleDetailID, r.To, "destination")
	if err != nil {
		return err
	}
	_, err = ws.relocate(r.ArticleDetailID, from, to, r.Quantity, r.All, r.Lot, ref)
	return err
}

// relocate returns how much moved.
func (ws *WorkingSet) relocate(article int64, from, to Location, quantity int, all bool, lot *LotSpec, ref Reference) (int, error) {
	if err := ws.check(article, from); err != nil {
		return 0, err
	}
	if err := ws.check(article, to); err != nil {
		return 0, err
	}
	if err := ws.unlocked(from, ref); err != nil {
		return 0, err
	}
	if err := ws.unlocked(to, ref); err != nil {
		return 0, err
	}
	if !all && quantity <= 0 {
		return 0, errs.Invalidf("relocation quantity of article detail %d from %s to %s must be positive, got %d",
			article, from, to, quantity).On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, from))
	}
	if from.WarehouseID == to.WarehouseID && from.BinLocationID == to.BinLocationID {
		return 0, errs.Invalidf("cannot relocate article detail %d from %s to the same location", article, from).
			On("destination").Breaks(SameLocation).About(concerning(article, from))
	}
	target, err := ws.inTarget(article, to)
	if err != nil {
		return 0, err
	}
	if !from.IsWarehouse() && target == from.BinLocationID {
		// A bin source whose warehouse destination puts the stock back on it.
		return 0, errs.Invalidf("cannot relocate article detail %d from %s to %s: it would go back to the same bin location",
			article, from, to).On("destination").Breaks(SameLocation).About(concerning(article, from))
	}
	except := int64(0)
	if from.IsWarehouse() && from.WarehouseID == to.WarehouseID {
		except = to.BinLocationID
	}
	// Pieces move with their lots. A named lot moves even when expired (to
	// quarantine), and so does "all"; otherwise lots go first expiring
	// first out, expired ones staying.
	c, err := ws.lotOut(article, lot, lot != nil || all)
	if err != nil {
		return 0, err
	}
	sources := ws.sources(article, from, except)
	avail := ws.available(article, sources, c)
	if all {
		quantity = avail
	}
	if quantity > avail {
		return 0, insufficient(article, from, quantity, avail)
	}
	if quantity == 0 {
		return 0, nil
	}
	if err := ws.checkLimitOn(article, to, target, quantity); err != nil {
		return 0, err
	}
	steps := ws.take(article, sources, quantity, c)
	// What arrives: one step per lot, in the order the lots left.
	taken := len(steps)
	for _, s := range steps[:taken] {
		i := slices.IndexFunc(steps[taken:], func(in step) bool { return in.lot == s.lot })
		if i < 0 {
			steps = append(steps, step{to.WarehouseID, target, 0, s.lot})
			i = len(steps) - taken - 1
		}
		steps[taken+i].delta -= s.delta
	}
	if err := ws.apply(article, steps, EntryRelocation, ref); err != nil {
		return 0, err
	}
	return quantity, nil
}
