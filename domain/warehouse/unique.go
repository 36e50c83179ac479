package warehouse

import (
	"strconv"

	"github.com/shopstock/inventory/domain/errs"
)

// ErrCodeTaken: warehouse codes are unique (they name warehouses in stock
// operations).
func ErrCodeTaken(code string) error {
	return errs.Taken("code", "a warehouse with code", strconv.Quote(code))
}

// ErrBinCodeTaken: bin location codes are unique within their warehouse.
func ErrBinCodeTaken(code string) error {
	return errs.Taken("code", "a bin location of this warehouse with code", strconv.Quote(code))
}
