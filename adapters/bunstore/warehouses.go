package bunstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

type warehouseRow struct {
	bun.BaseModel `bun:"table:warehouses,alias:w"`

	ID                    int64  `bun:"id,pk,autoincrement"`
	Code                  string `bun:"code"`
	Name                  string `bun:"name"`
	StockAvailableForSale bool   `bun:"stock_available_for_sale"`
	IsDefault             bool   `bun:"is_default"`
	IsDefaultReturn       bool   `bun:"is_default_return"`
	NullBinLocationID     int64  `bun:"null_bin_location_id,nullzero"`
	Contact               string `bun:"contact"`
	Email                 string `bun:"email"`
	Phone                 string `bun:"phone"`
	Address               string `bun:"address"`
	Comment               string `bun:"comment"`
	BinLocationFormat     string `bun:"bin_location_format"`
}

// formatComponentRow is how a format component is kept: the API's own shape.
type formatComponentRow struct {
	Type    string `json:"type"`
	Value   string `json:"value,omitempty"`
	From    any    `json:"from,omitempty"`
	To      any    `json:"to,omitempty"`
	Padding *int   `json:"padding,omitempty"`
}

func toWarehouseRow(w *warehouse.Warehouse) (*warehouseRow, error) {
	d := w.Details()
	format := make([]formatComponentRow, 0, len(d.BinLocationFormat))
	for _, c := range d.BinLocationFormat {
		r := formatComponentRow{Type: string(c.Type)}
		switch c.Type {
		case warehouse.ComponentText:
			r.Value = c.Text
		case warehouse.ComponentNumber:
			padding := c.Padding
			r.From, r.To, r.Padding = c.NumberFrom, c.NumberTo, &padding
		case warehouse.ComponentLetter:
			r.From, r.To = c.LetterFrom, c.LetterTo
		}
		format = append(format, r)
	}
	raw, err := json.Marshal(format)
	if err != nil {
		return nil, err
	}
	return &warehouseRow{
		ID: w.ID(), Code: d.Code, Name: d.Name, StockAvailableForSale: d.StockAvailableForSale,
		IsDefault: w.IsDefault(), IsDefaultReturn: w.IsDefaultReturn(), NullBinLocationID: w.NullBinLocationID(),
		Contact: d.Contact, Email: d.Email, Phone: d.Phone, Address: d.Address, Comment: d.Comment,
		BinLocationFormat: string(raw),
	}, nil
}

func (r *warehouseRow) toDomain() (*warehouse.Warehouse, error) {
	var format []struct {
		Type    string          `json:"type"`
		Value   string          `json:"value"`
		From    json.RawMessage `json:"from"`
		To      json.RawMessage `json:"to"`
		Padding int             `json:"padding"`
	}
	if err := json.Unmarshal([]byte(r.BinLocationFormat), &format); err != nil {
		return nil, fmt.Errorf("warehouse %d: stored format: %w", r.ID, err)
	}
	components := make([]warehouse.FormatComponent, 0, len(format))
	for _, f := range format {
		c := warehouse.FormatComponent{Type: warehouse.ComponentType(f.Type), Text: f.Value, Padding: f.Padding}
		switch c.Type {
		case warehouse.ComponentNumber:
			_ = json.Unmarshal(f.From, &c.NumberFrom)
			_ = json.Unmarshal(f.To, &c.NumberTo)
		case warehouse.ComponentLetter:
			_ = json.Unmarshal(f.From, &c.LetterFrom)
			_ = json.Unmarshal(f.To, &c.LetterTo)
		}
		components = append(components, c)
	}
	d := warehouse.Details{
		Code: r.Code, Name: r.Name, StockAvailableForSale: r.StockAvailableForSale,
		Contact: r.Contact, Email: r.Email, Phone: r.Phone, Address: r.Address, Comment: r.Comment,
		BinLocationFormat: components,
	}
	return warehouse.UnmarshalFromDatabase(r.ID, d, r.IsDefault, r.IsDefaultReturn, r.NullBinLocationID), nil
}

var warehouseColumns = columns{
	"warehouse.id": "w.id", "warehouse.code": "w.code", "warehouse.name": "w.name",
	"warehouse.stockAvailableForSale": "w.stock_available_for_sale", "warehouse.defaultWarehouse": "w.is_default",
	"warehouse.defaultReturnShipmentWarehouse": "w.is_default_return", "warehouse.nullBinLocationId": "w.null_bin_location_id",
	"warehouse.contact": "w.contact", "warehouse.email": "w.email", "warehouse.phone": "w.phone",
	"warehouse.address": "w.address", "warehouse.comment": "w.comment",
}

type warehouses struct{ s *store }

func (r warehouses) Add(ctx context.Context, w *warehouse.Warehouse, unknown *warehouse.BinLocation) error {
	row, err := toWarehouseRow(w)
	if err != nil {
		return err
	}
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return r.duplicate(err, row.Code)
	}
	null := &binLocationRow{WarehouseID: row.ID, Code: unknown.Code()}
	if _, err := r.s.idb.NewInsert().Model(null).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return err
	}
	if _, err := r.s.idb.NewUpdate().Table("warehouses").Set("null_bin_location_id = ?", null.ID).Where("id = ?", row.ID).Exec(ctx); err != nil {
		return err
	}
	unknown.Assign(null.ID)
	w.Assign(row.ID, unknown)
	return nil
}

func (r warehouses) duplicate(err error, code string) error {
	if isUniqueViolation(err) {
		return warehouse.ErrCodeTaken(code)
	}
	return err
}

func (r warehouses) Get(ctx context.Context, id int64) (*warehouse.Warehouse, error) {
	row := new(warehouseRow)
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(row).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, notFound(err, "warehouse %d not found", id)
	}
	return row.toDomain()
}

func (r warehouses) Save(ctx context.Context, w *warehouse.Warehouse) error {
	r.s.saved.Warehouse(w)
	row, err := toWarehouseRow(w)
	if err != nil {
		return err
	}
	_, err = r.s.idb.NewUpdate().Model(row).WherePK().Exec(ctx)
	return r.duplicate(err, row.Code)
}

func (r warehouses) Delete(ctx context.Context, id int64) error {
	if _, err := r.s.idb.NewDelete().Table("bin_locations").Where("warehouse_id = ?", id).Exec(ctx); err != nil {
		return err
	}
	_, err := r.s.idb.NewDelete().Table("warehouses").Where("id = ?", id).Exec(ctx)
	return err
}

func (r warehouses) List(ctx context.Context, q ports.ListQuery) (ports.Page[*warehouse.Warehouse], error) {
	var rows []warehouseRow
	total, err := page(ctx, r.s.idb, &rows, q, warehouseColumns, ports.WarehouseFields, "w.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	if err != nil {
		return ports.Page[*warehouse.Warehouse]{}, err
	}
	return warehousePage(rows, total)
}

func warehousePage(rows []warehouseRow, total int) (ports.Page[*warehouse.Warehouse], error) {
	out := ports.Page[*warehouse.Warehouse]{Items: make([]*warehouse.Warehouse, 0, len(rows)), Total: total}
	for i := range rows {
		w, err := rows[i].toDomain()
		if err != nil {
			return out, err
		}
		out.Items = append(out.Items, w)
	}
	return out, nil
}

func (r warehouses) Defaults(ctx context.Context) (def, defReturn *warehouse.Warehouse, err error) {
	var rows []warehouseRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("is_default OR is_default_return").Scan(ctx); err != nil {
		return nil, nil, err
	}
	for i := range rows {
		w, err := rows[i].toDomain()
		if err != nil {
			return nil, nil, err
		}
		if w.IsDefault() {
			def = w
		}
		if w.IsDefaultReturn() {
			defReturn = w
		}
	}
	return def, defReturn, nil
}

func (r warehouses) LockDefaults(ctx context.Context) error {
	return r.s.db.dialect.lockKey(ctx, r.s, 7263002)
}

func (r warehouses) CodeTaken(ctx context.Context, code string, exceptID int64) (bool, error) {
	return r.s.idb.NewSelect().Table("warehouses").Where("code = ? AND id <> ?", code, exceptID).Exists(ctx)
}

func (r warehouses) HasBinLocations(ctx context.Context, id int64) (bool, error) {
	return r.s.idb.NewSelect().Table("bin_locations").
		Where("warehouse_id = ? AND code <> ?", id, warehouse.NullBinLocationCode).Exists(ctx)
}
