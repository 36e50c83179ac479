package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
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
		details := o.Details()
		doc := newDocument{
			id: o.ID(), idTaken: repo.IDTaken, errIDTaken: order.ErrIDTaken,
			number: o.Number(), numberTaken: repo.NumberTaken, errNumber: order.ErrNumberTaken,
			items: "details", itemIDsTaken: repo.DetailIDsTaken, errItemIDTaken: order.ErrDetailIDTaken,
		}
		for _, d := range details {
			doc.itemIDs, doc.articleIDs = append(doc.itemIDs, d.ID()), append(doc.articleIDs, d.ArticleDetailID())
		}
		if err := doc.check(ctx, s); err != nil {
			return err
		}
		return repo.Add(ctx, o)
	})
	if err != nil {
		return 0, err
	}
	return o.ID(), nil
}
