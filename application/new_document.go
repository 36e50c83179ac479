package application

import (
	"context"
	"fmt"
	"slices"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// newDocument is what creating an order, a purchase order or a transfer
// checks against storage before it stores one: its id (when the shop chose
// one) and its number are free, its items' ids are free, and every item's
// product exists. The products are kept from being deleted before the items
// that name them are stored (KeepExisting), but not locked against their
// stock writers: a new document changes no stock, and the figures it
// changes are written under their snapshots' lock. So a new order does not
// wait for the batches and shipments of its products. Every mistake is
// reported at once, each on its property.
type newDocument struct {
	id          int64
	idTaken     func(ctx context.Context, id int64) (bool, error)
	errIDTaken  func(id int64) *errs.Error
	number      string
	numberTaken func(ctx context.Context, number string) (bool, error)
	errNumber   func(number string) *errs.Error
	// items names the items' list in a request ("details", "lines").
	items          string
	itemIDs        []int64 // one per item, 0 where the shop chose none
	articleIDs     []int64 // one per item
	itemIDsTaken   func(ctx context.Context, ids []int64) ([]int64, error)
	errItemIDTaken func(property string, id int64) *errs.Error
}

func (d newDocument) check(ctx context.Context, s ports.Store) error {
	var bad []errs.FieldError
	if d.id != 0 {
		taken, err := d.idTaken(ctx, d.id)
		if err != nil {
			return err
		}
		if taken {
			bad = append(bad, d.errIDTaken(d.id).Fields...)
		}
	}
	taken, err := d.numberTaken(ctx, d.number)
	if err != nil {
		return err
	}
	if taken {
		bad = append(bad, d.errNumber(d.number).Fields...)
	}
	var chosen []int64
	for _, id := range d.itemIDs {
		if id != 0 {
			chosen = append(chosen, id)
		}
	}
	takenIDs, err := d.itemIDsTaken(ctx, chosen)
	if err != nil {
		return err
	}
	articles, err := s.ArticleDetails().KeepExisting(ctx, slices.Compact(slices.Sorted(slices.Values(d.articleIDs))))
	if err != nil {
		return err
	}
	for i, id := range d.itemIDs {
		if id != 0 && slices.Contains(takenIDs, id) {
			bad = append(bad, d.errItemIDTaken(fmt.Sprintf("%s[%d].id", d.items, i), id).Fields...)
		}
		if article := d.articleIDs[i]; !articles[article] {
			bad = append(bad, errs.FieldError{Property: fmt.Sprintf("%s[%d].articleDetailId", d.items, i), Message: fmt.Sprintf("article detail %d does not exist", article)})
		}
	}
	if len(bad) > 0 {
		return errs.InvalidFields(bad...)
	}
	return nil
}
