package catalog

import (
	"strconv"

	"github.com/shopstock/inventory/domain/errs"
)

// ErrIDTaken and ErrNumberTaken: the shop's ids and the numbers (SKUs) of
// article details are unique.
func ErrIDTaken(id int64) error {
	return errs.Taken("id", "an article detail with id", strconv.FormatInt(id, 10))
}

func ErrNumberTaken(number string) error {
	return errs.Taken("number", "an article detail with number", strconv.Quote(number))
}

// ErrEANTaken: two products cannot have the same GTIN, however many zeros
// either writes in front of it.
func ErrEANTaken(ean string) error {
	return errs.Taken("ean", "an article detail with the GTIN", strconv.Quote(ean))
}
