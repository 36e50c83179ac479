package stock

import "github.com/shopstock/inventory/domain/errs"

// Set is a stocktake: on a bin it sets that mapping's stock, on a warehouse
// the article's total there (more goes in and less goes out by the default
// strategy). It stamps the stocktake on the mapping it set, on a warehouse on
// every mapping of the article there afterwards, even when no quantity
// changed and so no ledger entry is written.
//
// A set that writes back what an export read (Restore) is no count: it
// stamps only where it changes the stock, so that importing an unchanged
// export leaves every "last counted" as it was.
type Set struct {
	ArticleDetailID int64
	At              LocationSpec
	Quantity        int
	// Lot names the lot the pieces belong to (nil: none named).
	Lot *LotSpec
	// Restore: the quantity was read, not counted.
	Restore bool
}

func (s Set) Declare(sc *Scope) { sc.Add(s.ArticleDetailID, s.At) }

func (s Set) Run(ws *WorkingSet, ref Reference) error {
	at, err := ws.locate(s.ArticleDetailID, s.At, "")
	if err != nil {
		return err
	}
	return ws.set(s.ArticleDetailID, at, s.Quantity, s.Lot, s.Restore, ref)
}

// set sets the stock at a location: on a lot-tracked product, the stock of
// the lot it names (which it must), else the stock of the product.
func (ws *WorkingSet) set(article int64, at Location, quantity int, lot *LotSpec, restore bool, ref Reference) error {
	if err := ws.check(article, at); err != nil {
		return err
	}
	if err := ws.unlockedWithin(article, at, ref); err != nil {
		return err
	}
	if quantity < 0 {
		return errs.Invalidf("stocktake quantity of article detail %d at %s must not be negative, got %d",
			article, at, quantity).On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, at))
	}
	number, err := ws.lotIn(article, lot, quantity > 0)
	if err != nil {
		return err
	}
	if !at.IsWarehouse() {
		return ws.setBin(article, at, quantity, number, restore, ref)
	}
	return ws.setWarehouse(article, at, quantity, number, restore, ref)
}

// counted is what a stocktake counts on a mapping: its stock and reserved
// pieces, or those of one lot.
func (m *Mapping) counted(lot string) (stock, reserved int) {
	if lot == "" {
		return m.stock, m.reservedStock
	}
	if i := m.lot(lot); i >= 0 {
		return m.lots[i].Stock, m.lots[i].ReservedStock
	}
	return 0, 0
}

func (ws *WorkingSet) setBin(article int64, at Location, quantity int, lot string, restore bool, ref Reference) error {
	stock, reserved, onBin := 0, 0, 0
	if m := ws.existing(article, at.BinLocationID); m != nil {
		stock, reserved = m.counted(lot)
		onBin = m.stock
	}
	if quantity < reserved {
		return errs.Invalidf("cannot set stock of article detail %d at %s to %d: %d are reserved",
			article, at, quantity, reserved).On("quantity").Breaks(BelowReserved).About(concerning(article, at))
	}
	if err := checkLimit(article, at, onBin, quantity-stock); err != nil {
		return err
	}
	if restore && quantity == stock {
		return nil
	}
	if err := ws.apply(article, []step{{at.WarehouseID, at.BinLocationID, quantity - stock, lot}}, EntryStocktake, ref); err != nil {
		return err
	}
	ws.stocktake(ws.mapping(article, at.WarehouseID, at.BinLocationID))
	return nil
}

// setWarehouse sets the stock in a warehouse: pieces go on at the default
// bin (else the unknown bin location) and come off by the stock-out
// strategy, of the named lot only on a lot-tracked product; every mapping
// of the product there is counted.
func (ws *WorkingSet) setWarehouse(article int64, at Location, quantity int, lot string, restore bool, ref Reference) error {
	total, reserved := 0, 0
	for m := range ws.inWarehouse(article, at.WarehouseID) {
		s, r := m.counted(lot)
		total += s
		reserved += r
	}
	if quantity < reserved {
		return errs.Invalidf("cannot set stock of article detail %d at %s to %d: %d are reserved",
			article, at, quantity, reserved).On("quantity").Breaks(BelowReserved).About(concerning(article, at))
	}
	if restore && quantity == total {
		return nil
	}
	var steps []step
	switch diff := quantity - total; {
	case diff > 0:
		bin, err := ws.inTarget(article, at)
		if err != nil {
			return err
		}
		if err := ws.checkLimitOn(article, at, bin, diff); err != nil {
			return err
		}
		steps = []step{{at.WarehouseID, bin, diff, lot}}
	case diff < 0:
		c := lotChoice{tracked: lot != "", only: lot, expired: true}
		steps = ws.take(article, ws.sources(article, at, 0), -diff, c)
	}
	if err := ws.apply(article, steps, EntryStocktake, ref); err != nil {
		return err
	}
	for m := range ws.inWarehouse(article, at.WarehouseID) {
		ws.stocktake(m)
	}
	return nil
}
