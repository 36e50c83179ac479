package bunstore

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
)

type locatedBinRow struct {
	ID                int64  `bun:"id"`
	WarehouseID       int64  `bun:"warehouse_id"`
	Code              string `bun:"code"`
	WarehouseCode     string `bun:"warehouse_code"`
	NullBinLocationID int64  `bun:"null_bin_location_id"`
}

// Load looks up the scope's locations, locks its article details in id
// order, and then loads the mappings the working set asks for (the product
// lock keeps other writers off them): a fixed number of statements whatever
// the batch's size.
func (r stockMappings) Load(ctx context.Context, scope stock.Scope, now time.Time) (*stock.WorkingSet, error) {
	warehouses, bins, found, err := r.s.db.dialect.locations(ctx, r.s, scope.Locations(), scope.Articles())
	if err != nil {
		return nil, err
	}
	return r.s.db.dialect.lockAndLoad(ctx, r.s, scope, now, warehouses, bins, found)
}

// Save writes the working set's changed mappings, their lots (saveLots)
// and its ledger entries: on PostgreSQL one pgx batch, one round trip
// (oneTrip).
func (r stockMappings) Save(ctx context.Context, ws *stock.WorkingSet) error {
	r.s.saved.WorkingSet(ws)
	upserted, removed, entries := ws.Changes()
	return r.s.oneTrip(ctx, func() error {
		if err := r.apply(ctx, upserted, removed); err != nil {
			return err
		}
		if err := r.saveLots(ctx, ws, upserted, removed); err != nil {
			return err
		}
		return (ledger{r.s}).append(ctx, entries)
	})
}

const locatedBinColumns = "b.id, b.warehouse_id, b.code, w.code AS warehouse_code, w.null_bin_location_id"

type loadedMappingRow struct {
	mappingRow `bun:",extend"`
	BinCode    string `bun:"bin_code"`
}

// loaded turns the rows read into the domain's mappings, with the bins
// whose codes came along, and remembers them as read (loadedMappings).
func (r stockMappings) loaded(rows []loadedMappingRow) ([]*stock.Mapping, []stock.Bin, error) {
	mappings := make([]*stock.Mapping, len(rows))
	bins := make([]stock.Bin, 0, len(rows))
	if r.s.loadedMappings == nil {
		r.s.loadedMappings = make(map[int64]mappingRow, len(rows))
	}
	for i, row := range rows {
		r.s.loadedMappings[row.ID] = row.mappingRow
		m, err := stock.UnmarshalMappingFromDatabase(row.ID, row.BinLocationID, row.WarehouseID, row.ArticleDetailID,
			row.Stock, row.ReservedStock, row.IsDefault, row.LastStockTake)
		if err != nil {
			return nil, nil, err
		}
		mappings[i] = m
		if row.BinCode != "" {
			bins = append(bins, stock.Bin{ID: row.BinLocationID, WarehouseID: row.WarehouseID, Code: row.BinCode, IsNull: row.BinCode == warehouse.NullBinLocationCode})
		}
	}
	return mappings, bins, nil
}

func toMappingRow(m *stock.Mapping) mappingRow {
	row := mappingRow{
		ID: m.ID(), BinLocationID: m.BinLocationID(), WarehouseID: m.WarehouseID(), ArticleDetailID: m.ArticleDetailID(),
		Stock: m.Stock(), ReservedStock: m.ReservedStock(), IsDefault: m.IsDefault(),
	}
	if t := m.LastStockTake(); t != nil {
		u := t.UTC()
		row.LastStockTake = &u
	}
	return row
}

// apply deletes, updates and inserts in three statements at most.
func (r stockMappings) apply(ctx context.Context, upserted, removed []*stock.Mapping) error {
	if len(removed) > 0 {
		ids := make([]int64, len(removed))
		for i, m := range removed {
			ids[i] = m.ID()
		}
		if err := r.s.exec(ctx, "DELETE FROM stock_mappings WHERE id ?", r.s.inIDs(ids)); err != nil {
			return err
		}
	}
	var updates, inserts []mappingRow
	for _, m := range upserted {
		if m.ID() == 0 {
			inserts = append(inserts, toMappingRow(m))
		} else {
			updates = append(updates, toMappingRow(m))
		}
	}
	// One default per product and warehouse is a unique index checked row
	// by row, so a default that moves is cleared before it is set.
	var cleared, rest []mappingRow
	for _, u := range updates {
		if u.IsDefault {
			rest = append(rest, u)
		} else {
			cleared = append(cleared, u)
		}
	}
	if len(rest) == 0 || len(cleared) == 0 {
		cleared, rest = updates, nil
	}
	for _, group := range [][]mappingRow{cleared, rest} {
		if len(group) > 0 {
			if err := r.update(ctx, group); err != nil {
				return err
			}
		}
	}
	if len(inserts) > 0 {
		insert, err := r.s.idb.NewInsert().Model(&inserts).ExcludeColumn("id").Returning("NULL").AppendQuery(r.s.db.bun.QueryGen(), nil)
		if err != nil {
			return err
		}
		return r.s.exec(ctx, string(insert))
	}
	return nil
}

// The columns of a mapping that an update may change.
const (
	changedStock = 1 << iota
	changedReserved
	changedDefault
	changedTake
)

// changedColumns tells which columns of rows differ from the mappings as
// this transaction read them; all of them for a mapping it did not read.
func (r stockMappings) changedColumns(rows []mappingRow) int {
	changed := 0
	for _, row := range rows {
		before, ok := r.s.loadedMappings[row.ID]
		if !ok {
			return changedStock | changedReserved | changedDefault | changedTake
		}
		if row.Stock != before.Stock {
			changed |= changedStock
		}
		if row.ReservedStock != before.ReservedStock {
			changed |= changedReserved
		}
		if row.IsDefault != before.IsDefault {
			changed |= changedDefault
		}
		if !equalValue(row.LastStockTake, before.LastStockTake) {
			changed |= changedTake
		}
	}
	return changed
}

// update writes the columns that changed (a change batch writes only
// stock), as one set-based statement.
func (r stockMappings) update(ctx context.Context, rows []mappingRow) error {
	changed := r.changedColumns(rows)
	if changed == 0 {
		return nil
	}
	err := r.s.db.dialect.updateMappings(ctx, r.s, rows, changed)
	if err == nil && r.s.loadedMappings != nil {
		for _, row := range rows {
			r.s.loadedMappings[row.ID] = row
		}
	}
	return err
}

func (r stockMappings) ArticleHasStock(ctx context.Context, articleDetailID int64) (bool, error) {
	return r.s.idb.NewSelect().Table("stock_mappings").Where("article_detail_id = ? AND stock > 0", articleDetailID).Exists(ctx)
}

func (r stockMappings) RemoveEmpty(ctx context.Context, articleDetailID int64) error {
	_, err := r.s.idb.NewDelete().Table("stock_mappings").Where("article_detail_id = ? AND stock = 0 AND reserved_stock = 0", articleDetailID).Exec(ctx)
	return err
}
