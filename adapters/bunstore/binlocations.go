package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

type binLocationRow struct {
	bun.BaseModel `bun:"table:bin_locations,alias:b"`

	ID          int64  `bun:"id,pk,autoincrement"`
	WarehouseID int64  `bun:"warehouse_id"`
	Code        string `bun:"code"`
}

func (r *binLocationRow) toDomain() *warehouse.BinLocation {
	return warehouse.UnmarshalBinLocationFromDatabase(r.ID, r.WarehouseID, r.Code)
}

var binLocationColumns = columns{
	"binLocation.id": "b.id", "binLocation.warehouseId": "b.warehouse_id", "binLocation.code": "b.code",
}

type binLocations struct{ s *store }

func (r binLocations) duplicate(err error, code string) error {
	if isUniqueViolation(err) {
		return warehouse.ErrBinCodeTaken(code)
	}
	return err
}

func (r binLocations) Add(ctx context.Context, b *warehouse.BinLocation) error {
	row := &binLocationRow{WarehouseID: b.WarehouseID(), Code: b.Code()}
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return r.duplicate(err, row.Code)
	}
	b.Assign(row.ID)
	return nil
}

// generateChunk keeps each INSERT well below both dialects' parameter and
// statement size limits.
const generateChunk = 2000

func (r binLocations) AddMissing(ctx context.Context, warehouseID int64, codes []string) (int, error) {
	created := 0
	for start := 0; start < len(codes); start += generateChunk {
		end := min(start+generateChunk, len(codes))
		rows := make([]binLocationRow, 0, end-start)
		for _, c := range codes[start:end] {
			rows = append(rows, binLocationRow{WarehouseID: warehouseID, Code: c})
		}
		res, err := r.s.idb.NewInsert().Model(&rows).ExcludeColumn("id").On("CONFLICT (warehouse_id, code) DO NOTHING").Exec(ctx)
		if err != nil {
			return 0, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		created += int(n)
	}
	return created, nil
}

func (r binLocations) Get(ctx context.Context, id int64) (*warehouse.BinLocation, error) {
	row := new(binLocationRow)
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(row).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, notFound(err, "bin location %d not found", id)
	}
	return row.toDomain(), nil
}

func (r binLocations) Save(ctx context.Context, b *warehouse.BinLocation) error {
	_, err := r.s.idb.NewUpdate().Table("bin_locations").Set("code = ?", b.Code()).Where("id = ?", b.ID()).Exec(ctx)
	return r.duplicate(err, b.Code())
}

func (r binLocations) Delete(ctx context.Context, id int64) error {
	_, err := r.s.idb.NewDelete().Table("bin_locations").Where("id = ?", id).Exec(ctx)
	return err
}

func (r binLocations) List(ctx context.Context, q ports.ListQuery) (ports.Page[*warehouse.BinLocation], error) {
	var rows []binLocationRow
	total, err := page(ctx, r.s.idb, &rows, q, binLocationColumns, ports.BinLocationFields, "b.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	out := ports.Page[*warehouse.BinLocation]{Total: total, Items: make([]*warehouse.BinLocation, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, rows[i].toDomain())
	}
	return out, err
}

func (r binLocations) CodeTaken(ctx context.Context, warehouseID int64, code string, exceptID int64) (bool, error) {
	return r.s.idb.NewSelect().Table("bin_locations").
		Where("warehouse_id = ? AND code = ? AND id <> ?", warehouseID, code, exceptID).Exists(ctx)
}

func (r binLocations) Codes(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Code string `bun:"code"`
	}
	if err := r.s.idb.NewSelect().Table("bin_locations").Column("id", "code").Where("id IN (?)", bun.List(ids)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.ID] = row.Code
	}
	return out, nil
}
