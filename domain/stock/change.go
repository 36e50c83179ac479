package stock

import "github.com/shopstock/inventory/domain/errs"

// Change adds stock at a location (incoming) or, with a negative quantity,
// takes it away (outgoing); it never takes reserved stock.
type Change struct {
	ArticleDetailID int64
	At              LocationSpec
	Quantity        int
	// Lot names the lot the pieces belong to (nil: none named).
	Lot *LotSpec
}

func (c Change) Declare(s *Scope) { s.Add(c.ArticleDetailID, c.At) }

func (c Change) Run(ws *WorkingSet, ref Reference) error {
	at, err := ws.locate(c.ArticleDetailID, c.At, "")
	if err != nil {
		return err
	}
	return ws.change(c.ArticleDetailID, at, c.Quantity, c.Lot, ref)
}

func (ws *WorkingSet) change(article int64, at Location, quantity int, lot *LotSpec, ref Reference) error {
	if err := ws.check(article, at); err != nil {
		return err
	}
	if err := ws.unlocked(at, ref); err != nil {
		return err
	}
	if quantity == 0 {
		return errs.Invalidf("change quantity of article detail %d at %s must not be 0", article, at).
			On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, at))
	}
	if quantity > 0 {
		_, err := ws.stockIn(article, at, quantity, lot, EntryIncoming, ref)
		return err
	}
	// A write-off may name an expired lot; without a lot, expired pieces
	// stay (they leave by name).
	c, err := ws.lotOut(article, lot, lot != nil)
	if err != nil {
		return err
	}
	sources := ws.sources(article, at, 0)
	if avail := ws.available(article, sources, c); -quantity > avail {
		return insufficient(article, at, -quantity, avail)
	}
	return ws.apply(article, ws.take(article, sources, -quantity, c), EntryOutgoing, ref)
}

// stockIn is the one way pieces come into stock (a change upwards, a
// return, a receipt): at a bin, or on a warehouse the product's default bin
// there, else its unknown bin location; never over MaxStock. It tells the
// bin the pieces went to.
func (ws *WorkingSet) stockIn(article int64, at Location, quantity int, lot *LotSpec, typ EntryType, ref Reference) (Location, error) {
	bin, err := ws.inTarget(article, at)
	if err != nil {
		return Location{}, err
	}
	if err := ws.checkLimitOn(article, at, bin, quantity); err != nil {
		return Location{}, err
	}
	number, err := ws.lotIn(article, lot, true)
	if err != nil {
		return Location{}, err
	}
	if err := ws.apply(article, []step{{at.WarehouseID, bin, quantity, number}}, typ, ref); err != nil {
		return Location{}, err
	}
	return Location{WarehouseID: at.WarehouseID, BinLocationID: bin}, nil
}

// checkLimitOn refuses adding to bin what would push it over MaxStock.
func (ws *WorkingSet) checkLimitOn(article int64, at Location, bin int64, adding int) error {
	have := 0
	if m := ws.existing(article, bin); m != nil {
		have = m.stock
	}
	return checkLimit(article, at, have, adding)
}
