package application

import (
	"context"
	"fmt"
	"slices"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/ports"
)

// CreateOrder stores an order the shop pushes in, with the shop's ids where
// it gives them. Every position must name an existing article detail.
func (a *App) CreateOrder(ctx context.Context, p order.NewOrder) (int64, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return 0, err
	}
	o, err := order.New(p)
	if err != nil {
		return 0, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.Orders()
		var bad []errs.FieldError
		if o.ID() != 0 {
			taken, err := repo.IDTaken(ctx, o.ID())
			if err != nil {
				return err
			}
			if taken {
				bad = append(bad, order.ErrIDTaken(o.ID()).Fields...)
			}
		}
		taken, err := repo.NumberTaken(ctx, o.Number())
		if err != nil {
			return err
		}
		if taken {
			bad = append(bad, order.ErrNumberTaken(o.Number()).Fields...)
		}

		details := o.Details()
		var detailIDs, articleIDs []int64
		for _, d := range details {
			if d.ID() != 0 {
				detailIDs = append(detailIDs, d.ID())
			}
			articleIDs = append(articleIDs, d.ArticleDetailID())
		}
		takenIDs, err := repo.DetailIDsTaken(ctx, detailIDs)
		if err != nil {
			return err
		}
		// Locking the products keeps them from being deleted before the
		// positions that reference them are stored.
		slices.Sort(articleIDs)
		articles, err := s.ArticleDetails().Lock(ctx, slices.Compact(articleIDs))
		if err != nil {
			return err
		}
		for i, d := range details {
			if d.ID() != 0 && slices.Contains(takenIDs, d.ID()) {
				bad = append(bad, order.ErrDetailIDTaken(fmt.Sprintf("details[%d].id", i), d.ID()).Fields...)
			}
			if !articles[d.ArticleDetailID()] {
				bad = append(bad, errs.FieldError{Property: fmt.Sprintf("details[%d].articleDetailId", i), Message: fmt.Sprintf("article detail %d does not exist", d.ArticleDetailID())})
			}
		}
		if len(bad) > 0 {
			return errs.InvalidFields(bad...)
		}
		return repo.Add(ctx, o)
	})
	if err != nil {
		return 0, err
	}
	return o.ID(), nil
}
