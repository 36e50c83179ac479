package application

import (
	"context"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/ports"
)

// articleFigures computes the stock figures of products from their stock
// per warehouse and what orders still have to ship. It is the one place
// that spells the formula: the single fetch, every list item and the
// stock.changed events all come from here. Set-based: a fixed number of
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
	out := make([]ArticleStock, len(articles))
	for i, a := range articles {
		v := ArticleStock{Article: a, WarehouseStocks: stocks[a.ID()]}
		if v.WarehouseStocks == nil {
			v.WarehouseStocks = []ports.WarehouseStock{}
		}
		for _, w := range v.WarehouseStocks {
			v.PhysicalStock += w.Stock
			v.ReservedStock += w.ReservedStock
			if w.StockAvailableForSale {
				v.PhysicalStockForSale += w.Stock
			}
		}
		v.AvailableStock = v.PhysicalStockForSale - outstanding[a.ID()]
		out[i] = v
	}
	return out, nil
}

// BelowReorderPoint tells whether the product's available stock is below
// its reorder point.
func (v ArticleStock) BelowReorderPoint() bool {
	return v.Article.BelowReorderPoint(v.AvailableStock)
}
