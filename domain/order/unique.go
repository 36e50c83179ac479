package order

import (
	"strconv"

	"github.com/shopstock/inventory/domain/errs"
)

// ErrIDTaken, ErrNumberTaken and ErrDetailIDTaken: the shop's order ids,
// order numbers and position ids are unique. property names where the
// client sent the value.
func ErrIDTaken(id int64) *errs.Error {
	return errs.Taken("id", "an order with id", strconv.FormatInt(id, 10))
}

func ErrNumberTaken(number string) *errs.Error {
	return errs.Taken("number", "an order with number", strconv.Quote(number))
}

func ErrDetailIDTaken(property string, id int64) *errs.Error {
	return errs.Taken(property, "an order detail with id", strconv.FormatInt(id, 10))
}
