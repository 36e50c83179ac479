package purchase

import (
	"strconv"

	"github.com/shopstock/inventory/domain/errs"
)

// ErrIDTaken, ErrNumberTaken and ErrLineIDTaken: purchase order ids,
// numbers and line ids are unique. property names where the client sent
// the value.
func ErrIDTaken(id int64) *errs.Error {
	return errs.Taken("id", "a purchase order with id", strconv.FormatInt(id, 10))
}

func ErrNumberTaken(number string) *errs.Error {
	return errs.Taken("number", "a purchase order with number", strconv.Quote(number))
}

func ErrLineIDTaken(property string, id int64) *errs.Error {
	return errs.Taken(property, "a purchase order line with id", strconv.FormatInt(id, 10))
}

// ErrNamesArticle: a product that purchase order lines name stays, so that
// the orders keep their history.
func ErrNamesArticle(articleDetailID int64) *errs.Error {
	return errs.Invalidf("article detail %d is named by purchase order lines and cannot be deleted", articleDetailID).
		Breaks("article_detail_named_by_purchase_orders")
}
