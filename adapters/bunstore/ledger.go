package bunstore

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type ledgerRow struct {
	bun.BaseModel `bun:"table:stock_ledger_entries,alias:l"`

	ID              int64     `bun:"id,pk,autoincrement"`
	ArticleDetailID int64     `bun:"article_detail_id"`
	WarehouseID     int64     `bun:"warehouse_id"`
	BinLocationID   int64     `bun:"bin_location_id"`
	Type            string    `bun:"type"`
	Quantity        int       `bun:"quantity"`
	StockAfter      int       `bun:"stock_after"`
	IdempotencyKey  *string   `bun:"idempotency_key"`
	OperationID     *string   `bun:"operation_id"`
	OrderID         *int64    `bun:"order_id"`
	OrderDetailID   *int64    `bun:"order_detail_id"`
	PurchaseOrderID *int64    `bun:"purchase_order_id"`
	User            string    `bun:"user_name"`
	CreatedAt       time.Time `bun:"created_at"`
}

var ledgerColumns = columns{
	"stockLedgerEntry.id": "l.id", "stockLedgerEntry.articleDetailId": "l.article_detail_id",
	"stockLedgerEntry.warehouseId": "l.warehouse_id", "stockLedgerEntry.binLocationId": "l.bin_location_id",
	"stockLedgerEntry.type": "l.type", "stockLedgerEntry.quantity": "l.quantity",
	"stockLedgerEntry.stockAfter": "l.stock_after", "stockLedgerEntry.idempotencyKey": "l.idempotency_key",
	"stockLedgerEntry.orderId": "l.order_id", "stockLedgerEntry.orderDetailId": "l.order_detail_id",
	"stockLedgerEntry.user": "l.user_name", "stockLedgerEntry.createdAt": "l.created_at",
	"stockLedgerEntry.purchaseOrderId": "l.purchase_order_id",
}

type ledger struct{ s *store }

func (s *store) Ledger() ports.LedgerRepository { return ledger{s} }

func optional[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func (r ledger) append(ctx context.Context, entries []stock.LedgerEntry) error {
	if len(entries) == 0 {
		return nil
	}
	if r.s.db.postgres {
		return r.appendPostgres(ctx, entries)
	}
	rows := make([]ledgerRow, len(entries))
	for i, e := range entries {
		rows[i] = ledgerRow{
			ArticleDetailID: e.ArticleDetailID, WarehouseID: e.WarehouseID, BinLocationID: e.BinLocationID,
			Type: string(e.Type), Quantity: e.Quantity, StockAfter: e.StockAfter,
			IdempotencyKey: optional(e.Ref.IdempotencyKey), OperationID: optional(e.Ref.OperationID),
			OrderID: optional(e.Ref.OrderID), OrderDetailID: optional(e.Ref.OrderDetailID),
			User: e.Ref.User, CreatedAt: e.CreatedAt.UTC(), PurchaseOrderID: optional(e.Ref.PurchaseOrderID),
		}
	}
	return r.appendSQLite(ctx, rows)
}

// appendSQLite binds the entries as parameters of multi-row inserts.
func (r ledger) appendSQLite(ctx context.Context, rows []ledgerRow) error {
	c := newSQLiteColumns(len(rows))
	sqliteColumn(c, rows, "article_detail_id", func(l *ledgerRow) any { return l.ArticleDetailID })
	sqliteColumn(c, rows, "warehouse_id", func(l *ledgerRow) any { return l.WarehouseID })
	sqliteColumn(c, rows, "bin_location_id", func(l *ledgerRow) any { return l.BinLocationID })
	sqliteColumn(c, rows, "type", func(l *ledgerRow) any { return l.Type })
	sqliteColumn(c, rows, "quantity", func(l *ledgerRow) any { return l.Quantity })
	sqliteColumn(c, rows, "stock_after", func(l *ledgerRow) any { return l.StockAfter })
	sqliteColumn(c, rows, "idempotency_key", func(l *ledgerRow) any { return derefOrNil(l.IdempotencyKey) })
	sqliteColumn(c, rows, "operation_id", func(l *ledgerRow) any { return derefOrNil(l.OperationID) })
	sqliteColumn(c, rows, "order_id", func(l *ledgerRow) any { return derefOrNil(l.OrderID) })
	sqliteColumn(c, rows, "order_detail_id", func(l *ledgerRow) any { return derefOrNil(l.OrderDetailID) })
	sqliteColumn(c, rows, "purchase_order_id", func(l *ledgerRow) any { return derefOrNil(l.PurchaseOrderID) })
	sqliteColumn(c, rows, "user_name", func(l *ledgerRow) any { return l.User })
	sqliteColumn(c, rows, "created_at", func(l *ledgerRow) any { return sqliteTime(&l.CreatedAt) })
	return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return r.s.execPrepared(ctx, chunk.insert("stock_ledger_entries"), chunk.args...)
	})
}

// derefOrNil is what a pointer points at, or nil (NULL).
func derefOrNil[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// appendPostgres sends the entries as one array per column (far less text
// for the server to parse than a thousand-row VALUES list), and a column
// whose value every entry shares (the batch's key, user, time, type) as one
// value.
func (r ledger) appendPostgres(ctx context.Context, entries []stock.LedgerEntry) error {
	var c pgColumns
	pgColumn(&c, entries, "article_detail_id", "bigint", func(e *stock.LedgerEntry) int64 { return e.ArticleDetailID })
	pgColumn(&c, entries, "warehouse_id", "bigint", func(e *stock.LedgerEntry) int64 { return e.WarehouseID })
	pgColumn(&c, entries, "bin_location_id", "bigint", func(e *stock.LedgerEntry) int64 { return e.BinLocationID })
	pgColumn(&c, entries, "type", "text", func(e *stock.LedgerEntry) string { return string(e.Type) })
	pgColumn(&c, entries, "quantity", "int", func(e *stock.LedgerEntry) int64 { return int64(e.Quantity) })
	pgColumn(&c, entries, "stock_after", "int", func(e *stock.LedgerEntry) int64 { return int64(e.StockAfter) })
	pgColumn(&c, entries, "idempotency_key", "text", func(e *stock.LedgerEntry) *string { return optional(e.Ref.IdempotencyKey) })
	pgColumn(&c, entries, "operation_id", "text", func(e *stock.LedgerEntry) *string { return optional(e.Ref.OperationID) })
	pgColumn(&c, entries, "order_id", "bigint", func(e *stock.LedgerEntry) *int64 { return optional(e.Ref.OrderID) })
	pgColumn(&c, entries, "order_detail_id", "bigint", func(e *stock.LedgerEntry) *int64 { return optional(e.Ref.OrderDetailID) })
	pgColumn(&c, entries, "purchase_order_id", "bigint", func(e *stock.LedgerEntry) *int64 { return optional(e.Ref.PurchaseOrderID) })
	pgColumn(&c, entries, "user_name", "text", func(e *stock.LedgerEntry) string { return e.Ref.User })
	pgColumn(&c, entries, "created_at", "timestamptz", func(e *stock.LedgerEntry) time.Time { return e.CreatedAt.UTC() })
	return r.s.execSoon(ctx, c.insert("stock_ledger_entries"), c.args...)
}

// pgColumns builds INSERT … SELECT … FROM unnest(…): each column is either
// one value or an array with a value per row.
type pgColumns struct {
	names, values, arrays []string
	args, arrayArgs       []any
	rows                  int
}

// pgColumn adds a column whose values get reads from the rows: one value
// when all rows agree, an array otherwise. Pointers are NULL when nil.
func pgColumn[R any, T comparable](c *pgColumns, rows []R, name, sqlType string, get func(*R) T) {
	c.names, c.rows = append(c.names, name), len(rows)
	first := get(&rows[0])
	uniform := true
	for i := 1; i < len(rows) && uniform; i++ {
		uniform = equalValue(get(&rows[i]), first)
	}
	if uniform {
		c.values = append(c.values, "?::"+sqlType)
		c.args = append(c.args, first)
		return
	}
	values := make([]T, len(rows))
	for i := range rows {
		values[i] = get(&rows[i])
	}
	c.values = append(c.values, "u."+name)
	c.arrays = append(c.arrays, "?::"+sqlType+"[]")
	c.arrayArgs = append(c.arrayArgs, pgdialect.Array(values))
}

// equalValue compares values, and pointers by what they point at.
func equalValue[T comparable](a, b T) bool {
	switch x := any(a).(type) {
	case *string:
		y := any(b).(*string)
		return x == y || (x != nil && y != nil && *x == *y)
	case *int64:
		y := any(b).(*int64)
		return x == y || (x != nil && y != nil && *x == *y)
	case *time.Time:
		y := any(b).(*time.Time)
		return x == y || (x != nil && y != nil && x.Equal(*y))
	case time.Time:
		return x.Equal(any(b).(time.Time))
	}
	return a == b
}

// insert is the statement; its arguments are c.args. Rows alike in every
// column are still as many rows.
func (c *pgColumns) insert(table string) string {
	from := c.from()
	if from == "" && c.rows > 1 {
		from = " FROM generate_series(1, " + strconv.Itoa(c.rows) + ")"
	}
	return "INSERT INTO " + table + " (" + strings.Join(c.names, ", ") + ") SELECT " + strings.Join(c.values, ", ") + from
}

// update is the statement that sets every column but the first on the
// table's row whose key is the first; its arguments are c.args.
func (c *pgColumns) update(table, alias string) string {
	sets := make([]string, len(c.names)-1)
	for i := range sets {
		sets[i] = c.names[i+1] + " = " + c.values[i+1]
	}
	from := c.from()
	// The key's placeholder, if it is one, comes last in the text.
	key := c.values[0]
	if !strings.HasPrefix(key, "u.") {
		c.args = append(slices.Clone(c.args[1:]), c.args[0])
	}
	return "UPDATE " + table + " AS " + alias + " SET " + strings.Join(sets, ", ") + from +
		" WHERE " + alias + "." + c.names[0] + " = " + key
}

// from is the FROM clause of the arrays, whose arguments it appends.
func (c *pgColumns) from() string {
	if len(c.arrays) == 0 {
		return ""
	}
	var arrayNames []string
	for i, v := range c.values {
		if strings.HasPrefix(v, "u.") {
			arrayNames = append(arrayNames, c.names[i])
		}
	}
	// The scalar placeholders come first in the text, the arrays after.
	c.args = append(c.args, c.arrayArgs...)
	c.arrayArgs = nil
	return " FROM unnest(" + strings.Join(c.arrays, ", ") + ") AS u(" + strings.Join(arrayNames, ", ") + ")"
}

func (r ledger) List(ctx context.Context, q ports.ListQuery) (ports.Page[ports.LedgerRecord], error) {
	var rows []ledgerRow
	total, err := page(ctx, r.s.idb, &rows, q, ledgerColumns, ports.StockLedgerEntryFields, "l.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	out := ports.Page[ports.LedgerRecord]{Total: total, Items: make([]ports.LedgerRecord, len(rows))}
	for i, row := range rows {
		e := stock.LedgerEntry{
			ArticleDetailID: row.ArticleDetailID, WarehouseID: row.WarehouseID, BinLocationID: row.BinLocationID,
			Type: stock.EntryType(row.Type), Quantity: row.Quantity, StockAfter: row.StockAfter,
			Ref: stock.Reference{User: row.User}, CreatedAt: row.CreatedAt.UTC(),
		}
		if row.IdempotencyKey != nil {
			e.Ref.IdempotencyKey = *row.IdempotencyKey
		}
		if row.OperationID != nil {
			e.Ref.OperationID = *row.OperationID
		}
		if row.OrderID != nil {
			e.Ref.OrderID = *row.OrderID
		}
		if row.OrderDetailID != nil {
			e.Ref.OrderDetailID = *row.OrderDetailID
		}
		if row.PurchaseOrderID != nil {
			e.Ref.PurchaseOrderID = *row.PurchaseOrderID
		}
		out.Items[i] = ports.LedgerRecord{ID: row.ID, LedgerEntry: e}
	}
	return out, err
}
