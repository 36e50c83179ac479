// Package catalog holds the ArticleDetail aggregate: the products the shop
// pushes in with its own ids, so that stock and orders can refer to them.
package catalog

import (
	"strconv"
	"strings"

	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
)

// ArticleDetail is one product variant, identified by the shop's id and SKU.
type ArticleDetail struct {
	id     int64
	number string
	name   string
	// reorderPoint is the available stock below which the shop wants to
	// reorder; 0 means none.
	reorderPoint int
	// ean is the product's GTIN as the shop wrote it, "" for none.
	ean barcode.GTIN
	// lotTracked tells whether the product's stock is kept per lot, each
	// with its number and best-before date.
	lotTracked bool
}

// MaxReorderPoint is the largest reorder point a product may have.
const MaxReorderPoint = 1000000000

// NewArticleDetail validates a product pushed in by the shop; id 0 means
// storage assigns one.
func NewArticleDetail(id int64, number, name string) (*ArticleDetail, error) {
	if id < 0 {
		return nil, errs.InvalidFields(errs.FieldError{Property: "id", Message: "must be positive"})
	}
	a := &ArticleDetail{id: id}
	if err := a.Rename(number, name); err != nil {
		return nil, err
	}
	return a, nil
}

// UnmarshalArticleDetailFromDatabase rebuilds a stored article detail.
func UnmarshalArticleDetailFromDatabase(id int64, number, name string, reorderPoint int, ean string, lotTracked bool) *ArticleDetail {
	return &ArticleDetail{id: id, number: number, name: name, reorderPoint: reorderPoint, ean: barcode.GTIN(ean), lotTracked: lotTracked}
}

// ErrLotTrackingFixed is why lotTracked stays: whether stock is kept per
// lot changes only while there is none of it.
var ErrLotTrackingFixed = errs.InvalidFields(errs.FieldError{
	Property: "lotTracked",
	Message:  "can change only while the product has no stock and no reservations in any warehouse",
}).Breaks("lot_tracking_fixed")

// SetLotTracked sets whether the product's stock is kept per lot. It can
// change only while the product has no stock and no reservations in any
// warehouse (physicalStock and reservedStock, all warehouses, are 0);
// setting the value it already has is no change and always fine.
func (a *ArticleDetail) SetLotTracked(tracked bool, physicalStock, reservedStock int) error {
	if tracked == a.lotTracked {
		return nil
	}
	if physicalStock != 0 || reservedStock != 0 {
		return ErrLotTrackingFixed
	}
	a.lotTracked = tracked
	return nil
}

// SetEAN sets the product's GTIN (EAN-8, UPC-A, EAN-13 or GTIN-14, its
// check digit right), or removes it with "". Whether another product has
// the same GTIN is the use case's to ask.
func (a *ArticleDetail) SetEAN(ean string) error {
	if ean == "" {
		a.ean = ""
		return nil
	}
	g, err := barcode.ParseGTIN(ean)
	if err != nil {
		return errs.InvalidFields(errs.FieldError{Property: "ean", Message: err.Error()})
	}
	a.ean = g
	return nil
}

// SetReorderPoint sets the reorder point, 0 (none) to MaxReorderPoint.
func (a *ArticleDetail) SetReorderPoint(n int) error {
	if n < 0 || n > MaxReorderPoint {
		return errs.InvalidFields(errs.FieldError{Property: "reorderPoint", Message: "must be an integer from 0 to " + strconv.Itoa(MaxReorderPoint)})
	}
	a.reorderPoint = n
	return nil
}

// BelowReorderPoint tells whether available stock calls for reordering:
// only a product with a reorder point can be below it.
func (a *ArticleDetail) BelowReorderPoint(availableStock int) bool {
	return a.reorderPoint > 0 && availableStock < a.reorderPoint
}

// Rename sets number and name, all or nothing.
func (a *ArticleDetail) Rename(number, name string) error {
	var fields []errs.FieldError
	number, err := code.Parse(number)
	if err != nil {
		fields = append(fields, errs.FieldError{Property: "number", Message: err.Error()})
	}
	name = strings.TrimSpace(name)
	if err := code.CheckText(name, code.MaxText); err != nil {
		fields = append(fields, errs.FieldError{Property: "name", Message: err.Error()})
	}
	if len(fields) > 0 {
		return errs.InvalidFields(fields...)
	}
	a.number, a.name = number, name
	return nil
}

// ErrStillReferenced is why an article detail with stock or open positions stays.
var ErrStillReferenced = errs.Invalidf("the article detail still has stock or unshipped order positions").Breaks("article_detail_referenced")

// ErrNamedByOrders: order positions, shipped ones too, keep naming their
// product, so an article detail that orders name stays.
var ErrNamedByOrders = errs.Invalidf("the article detail is named by order positions (shipped ones too) and cannot be deleted").Breaks("article_detail_named_by_orders")

// CheckDeletable tells whether the product may go.
func (a *ArticleDetail) CheckDeletable(hasStock, hasUnshippedPositions bool) error {
	if hasStock || hasUnshippedPositions {
		return ErrStillReferenced
	}
	return nil
}

// Assign records the id storage gave the product.
func (a *ArticleDetail) Assign(id int64) { a.id = id }

func (a *ArticleDetail) ID() int64         { return a.id }
func (a *ArticleDetail) Number() string    { return a.number }
func (a *ArticleDetail) Name() string      { return a.name }
func (a *ArticleDetail) ReorderPoint() int { return a.reorderPoint }

// EAN is the product's GTIN as the shop wrote it, "" for none.
func (a *ArticleDetail) EAN() barcode.GTIN { return a.ean }

// LotTracked tells whether the product's stock is kept per lot.
func (a *ArticleDetail) LotTracked() bool { return a.lotTracked }
