package transfer

import (
	"strconv"

	"github.com/shopstock/inventory/domain/errs"
)

// ErrIDTaken, ErrNumberTaken and ErrLineIDTaken: transfer ids, numbers and
// line ids are unique. property names where the client sent the value.
func ErrIDTaken(id int64) *errs.Error {
	return errs.Taken("id", "a transfer with id", strconv.FormatInt(id, 10))
}

func ErrNumberTaken(number string) *errs.Error {
	return errs.Taken("number", "a transfer with number", strconv.Quote(number))
}

func ErrLineIDTaken(property string, id int64) *errs.Error {
	return errs.Taken(property, "a transfer line with id", strconv.FormatInt(id, 10))
}

// ErrNamesArticle: a product that transfer lines name stays, so that the
// transfers keep their history and nothing on the road loses its product.
func ErrNamesArticle(articleDetailID int64) *errs.Error {
	return errs.Invalidf("article detail %d is named by transfer lines and cannot be deleted", articleDetailID).
		Breaks("article_detail_named_by_transfers")
}
