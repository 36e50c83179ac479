package stock

import (
	"fmt"

	"github.com/shopstock/inventory/domain/errs"
)

// MaxQuantity bounds every quantity a client sends, in either direction.
const MaxQuantity = 1_000_000_000

// MaxStock is the most one mapping may hold.
const MaxStock = 2_000_000_000

// ParseQuantity checks a quantity as a client wrote it: an integer of at most
// MaxQuantity either way. property names it in the message.
func ParseQuantity(property string, n int64) (int, error) {
	if n < -MaxQuantity || n > MaxQuantity {
		return 0, errs.InvalidFields(errs.FieldError{Property: property,
			Message: fmt.Sprintf("must be an integer from %d to %d", -MaxQuantity, MaxQuantity)}).Breaks(QuantityOutOfRange)
	}
	return int(n), nil
}

// checkLimit refuses to push a mapping's stock over MaxStock.
func checkLimit(article int64, at Location, stock, adding int) error {
	if stock+adding > MaxStock {
		return errs.Invalidf("stock limit of article detail %d at %s: %d more would make %d, at most %d are allowed",
			article, at, adding, stock+adding, MaxStock).On("quantity").Breaks(StockLimit).About(concerning(article, at))
	}
	return nil
}
