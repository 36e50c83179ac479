// Package limit holds the limits of the API and console that belong to no
// single aggregate: each is one constant with one check and one message,
// which the use cases, the API and the console all use. Limits of an
// aggregate stay with it: quantities in stock (stock.MaxQuantity), texts in
// code (code.MaxText), the reorder point in catalog.
package limit

import (
	"fmt"

	"github.com/shopstock/inventory/domain/errs"
)

// MaxID is the largest id of anything stored: ids are 32-bit in both
// databases.
const MaxID = 2147483647

// ValidID tells whether n can name something stored: 1 to MaxID.
func ValidID(n int64) bool { return n >= 1 && n <= MaxID }

// MaxBatchOperations is the most operations one batch may carry.
const MaxBatchOperations = 1000

// CheckBatchSize refuses a batch of no operations or of more than
// MaxBatchOperations.
func CheckBatchSize(n int) error {
	if n == 0 {
		return errs.Invalidf("the batch is empty: send 1 to %d operations", MaxBatchOperations).Breaks(BatchSize)
	}
	if n > MaxBatchOperations {
		return errs.Invalidf("the batch has %d operations; at most %d are allowed", n, MaxBatchOperations).Breaks(BatchSize)
	}
	return nil
}

// MaxFeedPage is the most events one read of the change feed returns;
// DefaultFeedPage is how many it returns when the reader does not say.
const (
	MaxFeedPage     = 1000
	DefaultFeedPage = 100
)

// CheckFeedPage refuses a page size of the change feed outside 1 to
// MaxFeedPage.
func CheckFeedPage(n int64) error {
	if n < 1 || n > MaxFeedPage {
		return errs.InvalidFields(errs.FieldError{Property: "limit", Message: fmt.Sprintf("must be an integer from 1 to %d", MaxFeedPage)}).
			Breaks(OutOfRange)
	}
	return nil
}

// CheckFeedAfter refuses a feed position below 0.
func CheckFeedAfter(n int64) error {
	if n < 0 {
		return errs.InvalidFields(errs.FieldError{Property: "after", Message: "must be an integer of at least 0"}).Breaks(OutOfRange)
	}
	return nil
}

// The limits of one list query: a page is DefaultListLimit items unless
// it asks for up to MaxListLimit; at most MaxFilters filters, MaxSorts
// sorts and MaxInValues values in one IN.
const (
	DefaultListLimit = 1000
	MaxListLimit     = 10000
	MaxFilters       = 50
	MaxSorts         = 10
	MaxInValues      = 1000
)

// CheckListShape refuses a list query with more filters or sorts than allowed.
func CheckListShape(filters, sorts int) error {
	if filters > MaxFilters {
		return errs.Invalidf("the list has %d filters; at most %d are allowed", filters, MaxFilters).On("filter").Breaks(ListShape)
	}
	if sorts > MaxSorts {
		return errs.Invalidf("the list has %d sorts; at most %d are allowed", sorts, MaxSorts).On("sort").Breaks(ListShape)
	}
	return nil
}

// CheckInValues refuses a filter (the index-th, with expression) that
// lists more than MaxInValues values.
func CheckInValues(index int, expression string, n int) error {
	if n > MaxInValues {
		return errs.Invalidf("filter[%d][value] holds %d values; %s takes at most %d", index, n, expression, MaxInValues).
			On(fmt.Sprintf("filter[%d][value]", index)).Breaks(ListShape)
	}
	return nil
}

// MaxImportLines is the most lines one stock import may carry after its
// header; a rejected import lists at most MaxImportErrors failing lines.
const (
	MaxImportLines  = 100_000
	MaxImportErrors = 100
)

// CheckImportLines refuses an import of no lines or of more than
// MaxImportLines.
func CheckImportLines(n int) error {
	if n == 0 {
		return errs.Invalidf("the import has no lines after the header: send 1 to %d", MaxImportLines).Breaks(ImportSize)
	}
	if n > MaxImportLines {
		return TooManyImportLines(n)
	}
	return nil
}

// TooManyImportLines is the error of an import past MaxImportLines; n is
// how many lines it has, 0 when a reader stopped counting at the bound.
func TooManyImportLines(n int) error {
	if n == 0 {
		return errs.Invalidf("the import has more than %d lines after the header", MaxImportLines).Breaks(ImportSize)
	}
	return errs.Invalidf("the import has %d lines after the header; at most %d are allowed", n, MaxImportLines).Breaks(ImportSize)
}

// The rules of limits an error can break.
const (
	BatchSize  errs.Code = "batch_size"
	ImportSize errs.Code = "import_size"
	ListShape  errs.Code = "list_shape"
	OutOfRange errs.Code = "out_of_range"
)
