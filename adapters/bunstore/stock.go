package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/ports"
)

type mappingRow struct {
	bun.BaseModel `bun:"table:stock_mappings,alias:m"`

	ID              int64      `bun:"id,pk,autoincrement"`
	BinLocationID   int64      `bun:"bin_location_id"`
	WarehouseID     int64      `bun:"warehouse_id"`
	ArticleDetailID int64      `bun:"article_detail_id"`
	Stock           int        `bun:"stock"`
	ReservedStock   int        `bun:"reserved_stock"`
	IsDefault       bool       `bun:"is_default"`
	LastStockTake   *time.Time `bun:"last_stock_take"`
}

func (r *mappingRow) view() ports.MappingView {
	v := ports.MappingView{
		ID: r.ID, BinLocationID: r.BinLocationID, WarehouseID: r.WarehouseID, ArticleDetailID: r.ArticleDetailID,
		Stock: r.Stock, ReservedStock: r.ReservedStock, DefaultMapping: r.IsDefault,
	}
	if r.LastStockTake != nil {
		t := r.LastStockTake.UTC()
		v.LastStockTake = &t
	}
	return v
}

type stockMappings struct{ s *store }

func (s *store) Stock() ports.StockRepository { return stockMappings{s} }

func (r stockMappings) WarehouseHasStock(ctx context.Context, warehouseID int64) (bool, error) {
	return r.s.idb.NewSelect().Table("stock_mappings").Where("warehouse_id = ? AND stock > 0", warehouseID).Exists(ctx)
}

func (r stockMappings) BinLocationUsage(ctx context.Context, binLocationID int64) (hasStock, isDefault bool, err error) {
	var rows []mappingRow
	err = r.s.idb.NewSelect().Model(&rows).Where("bin_location_id = ? AND (stock > 0 OR reserved_stock > 0 OR is_default)", binLocationID).Scan(ctx)
	for _, m := range rows {
		hasStock = hasStock || m.Stock > 0 || m.ReservedStock > 0
		isDefault = isDefault || m.IsDefault
	}
	return hasStock, isDefault, err
}

func (r stockMappings) MappingsOfBinLocation(ctx context.Context, binLocationID int64) ([]ports.MappingView, error) {
	var rows []mappingRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("bin_location_id = ?", binLocationID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]ports.MappingView, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	lots, err := r.mappingLots(ctx, binLocationID)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		out[i] = rows[i].view()
		out[i].Lots = lots[rows[i].ArticleDetailID]
		if out[i].Lots == nil {
			out[i].Lots = []ports.MappingLot{}
		}
	}
	return out, nil
}
