package application

import (
	"context"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// articleFigures reads what the stock figures of products are made of,
// their stock per warehouse, what orders still have to ship and what
// purchase orders still bring, and has the
// domain compute them (stock.FiguresOf): the single fetch, every list item
// and the stock.changed events all come from here. Set-based: a fixed number of
// queries however many products.
func articleFigures(ctx context.Context, s ports.Store, articles []*catalog.ArticleDetail) ([]ArticleStock, error) {
	ids := make([]int64, len(articles))
	for i, a := range articles {
		ids[i] = a.ID()
	}
	stocks, outstanding, err := s.Figures().StockOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	incoming, err := s.PurchaseOrders().IncomingOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	inTransit, err := s.Transfers().InTransitOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	return figuresOf(articles, stocks, outstanding, incoming, inTransit), nil
}

// figuresOf has the domain compute the figures of the products from their
// stock per warehouse and what orders still have to ship of them; incoming
// is what purchase orders still bring and inTransit what is on the road
// between warehouses, each kept as it is.
func figuresOf(articles []*catalog.ArticleDetail, stocks map[int64][]stock.WarehouseStock, outstanding, incoming, inTransit map[int64]int) []ArticleStock {
	out := make([]ArticleStock, len(articles))
	for i, a := range articles {
		warehouses := stocks[a.ID()]
		if warehouses == nil {
			warehouses = []stock.WarehouseStock{}
		}
		f := stock.FiguresOf(warehouses, outstanding[a.ID()])
		f.IncomingStock = incoming[a.ID()]
		f.InTransitStock = inTransit[a.ID()]
		out[i] = ArticleStock{Article: a, Figures: f}
	}
	return out
}

// BelowReorderPoint tells whether the product's available stock is below
// its reorder point.
func (v ArticleStock) BelowReorderPoint() bool {
	return v.Article.BelowReorderPoint(v.AvailableStock)
}
