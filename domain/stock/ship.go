package stock

import "github.com/shopstock/inventory/domain/errs"

// Ship clears shipped stock from a location, by the default strategy when it
// is a warehouse. Order shipments (domain/order) run it for their positions.
type Ship struct {
	ArticleDetailID int64
	From            LocationSpec
	Quantity        int
}

func (s Ship) Declare(sc *Scope) { sc.Add(s.ArticleDetailID, s.From) }

func (s Ship) Run(ws *WorkingSet, ref Reference) error {
	from, err := ws.locate(s.ArticleDetailID, s.From, "")
	if err != nil {
		return err
	}
	return ws.ship(s.ArticleDetailID, from, s.Quantity, ref)
}

func (ws *WorkingSet) ship(article int64, from Location, quantity int, ref Reference) error {
	if err := ws.check(article, from); err != nil {
		return err
	}
	if quantity <= 0 {
		return errs.Invalidf("shipped quantity of article detail %d from %s must be positive, got %d",
			article, from, quantity).On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, from))
	}
	sources := ws.sources(article, from, 0)
	if avail := available(sources); quantity > avail {
		return insufficient(article, from, quantity, avail)
	}
	ws.apply(article, ws.take(sources, quantity), EntryShipment, ref)
	return nil
}
