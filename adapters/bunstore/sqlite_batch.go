package bunstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/stock"
	domainstock "github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/uptrace/bun"
)

// locations looks the warehouses up, and then the bins, each by the
// ways the batch names them.
func (d *sqliteDialect) locations(ctx context.Context, s *store, wants stock.LocationNames, _ []int64) ([]stock.KnownWarehouse, []stock.Bin, *foundArticles, error) {
	warehouses, bins, err := d.namedLocations(ctx, s, wants)
	return warehouses, bins, nil, err
}

func (d *sqliteDialect) namedLocations(ctx context.Context, s *store, wants stock.LocationNames) ([]stock.KnownWarehouse, []stock.Bin, error) {
	seen := map[int64]bool{}
	var warehouses []stock.KnownWarehouse
	addWarehouse := func(w stock.KnownWarehouse) {
		if !seen[w.ID] {
			seen[w.ID] = true
			warehouses = append(warehouses, w)
		}
	}
	if len(wants.WarehouseIDs) > 0 || len(wants.WarehouseCodes) > 0 {
		var rows []warehouseRow
		q := s.idb.NewSelect().Model(&rows).Column("id", "code", "null_bin_location_id")
		if len(wants.WarehouseIDs) > 0 {
			q = q.WhereOr("id IN (?)", bun.List(wants.WarehouseIDs))
		}
		if len(wants.WarehouseCodes) > 0 {
			q = q.WhereOr("code IN (?)", bun.List(wants.WarehouseCodes))
		}
		if err := q.Scan(ctx); err != nil {
			return nil, nil, err
		}
		for _, w := range rows {
			addWarehouse(stock.KnownWarehouse{ID: w.ID, Code: w.Code, NullBinLocationID: w.NullBinLocationID})
		}
	}
	if len(wants.BinIDs) == 0 && len(wants.BinCodes) == 0 {
		return warehouses, nil, nil
	}
	rows, err := d.locate(ctx, s, wants)
	if err != nil {
		return nil, nil, err
	}
	bins := make([]stock.Bin, len(rows))
	for i, b := range rows {
		bins[i] = stock.Bin{ID: b.ID, WarehouseID: b.WarehouseID, Code: b.Code, IsNull: b.Code == warehouse.NullBinLocationCode}
		addWarehouse(stock.KnownWarehouse{ID: b.WarehouseID, Code: b.WarehouseCode, NullBinLocationID: b.NullBinLocationID})
	}
	return warehouses, bins, nil
}

// locate looks the named bins up in statements kept prepared, whatever
// the batch's size (sqliteRuns): by id in bound IN lists, by warehouse and
// code in bound VALUES lists joined through the unique index. With the
// pairs written into the text, parsing a thousand-code statement took 60%
// of the lookup and a tenth of the service's CPU in a 1000-operation batch.
// A bin named more than once comes once.
func (d *sqliteDialect) locate(ctx context.Context, s *store, wants stock.LocationNames) ([]locatedBinRow, error) {
	var rows []locatedBinRow
	seen := map[int64]bool{}
	query := func(text string, args []any) error {
		r, done, err := d.queryPrepared(ctx, s, text, args...)
		if err != nil {
			return err
		}
		defer done()
		defer r.Close()
		for r.Next() {
			var b locatedBinRow
			var nullBin sql.NullInt64
			if err := r.Scan(&b.ID, &b.WarehouseID, &b.Code, &b.WarehouseCode, &nullBin); err != nil {
				return err
			}
			b.NullBinLocationID = nullBin.Int64
			if !seen[b.ID] {
				seen[b.ID] = true
				rows = append(rows, b)
			}
		}
		return r.Err()
	}
	err := sqliteRuns(len(wants.BinIDs), sqlitePairsChunk, func(start, end int) error {
		args := make([]any, 0, end-start)
		for _, id := range wants.BinIDs[start:end] {
			args = append(args, id)
		}
		return query("SELECT "+locatedBinColumns+" FROM bin_locations AS b JOIN warehouses AS w ON w.id = b.warehouse_id WHERE b.id IN ("+
			strings.TrimSuffix(strings.Repeat("?, ", end-start), ", ")+")", args)
	})
	if err != nil {
		return nil, err
	}
	var byID, byCode []any
	for _, b := range wants.BinCodes {
		if b.WarehouseID != 0 {
			byID = append(byID, b.WarehouseID, b.Code)
		} else {
			byCode = append(byCode, b.WarehouseCode, b.Code)
		}
	}
	pairs := func(join string, args []any) error {
		return sqliteRuns(len(args)/2, sqlitePairsChunk, func(start, end int) error {
			return query("WITH p(w, c) AS (VALUES "+strings.TrimSuffix(strings.Repeat("(?, ?), ", end-start), ", ")+
				") SELECT "+locatedBinColumns+" FROM p "+join, args[2*start:2*end])
		})
	}
	if err := pairs("JOIN bin_locations AS b ON b.warehouse_id = p.w AND b.code = p.c JOIN warehouses AS w ON w.id = b.warehouse_id", byID); err != nil {
		return nil, err
	}
	if err := pairs("JOIN warehouses AS w ON w.code = p.w JOIN bin_locations AS b ON b.warehouse_id = w.id AND b.code = p.c", byCode); err != nil {
		return nil, err
	}
	return rows, nil
}

// loadMappings reads the wanted mappings; SQLite's immediate transaction
// already holds the database, so there is nothing to lock row by row. The
// pairs are bound as parameters of a VALUES list.
func (d *sqliteDialect) loadMappings(ctx context.Context, s *store, wants stock.MappingNeeds) ([]loadedMappingRow, error) {
	all := make([]loadedMappingRow, 0, len(wants.InWarehouse)+len(wants.OnBin))
	query := func(join, code, order string, n int, pair func(i int) (int64, int64)) error {
		first := len(all)
		err := sqliteRuns(n, sqlitePairsChunk, func(start, end int) error {
			args := make([]any, 0, 2*(end-start))
			for i := start; i < end; i++ {
				a, x := pair(i)
				args = append(args, a, x)
			}
			rows, done, err := d.queryPrepared(ctx, s, `WITH p(a, x) AS (VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?), ", end-start), ", ")+`)
SELECT m.id, m.bin_location_id, m.warehouse_id, m.article_detail_id, m.stock, m.reserved_stock, m.is_default, m.last_stock_take, `+code+`
FROM p `+join+order, args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var row loadedMappingRow
				var take sqliteTake
				if err = rows.Scan(&row.ID, &row.BinLocationID, &row.WarehouseID, &row.ArticleDetailID, &row.Stock, &row.ReservedStock,
					&row.IsDefault, &take, &row.BinCode); err != nil {
					break
				}
				row.LastStockTake = take.t
				all = append(all, row)
			}
			if err == nil {
				err = rows.Err()
			}
			rows.Close()
			done()
			return err
		})
		if err != nil {
			return err
		}
		if order != "" {
			// The runs are each in order; the whole answer is, as one
			// statement's was.
			slices.SortStableFunc(all[first:], func(x, y loadedMappingRow) int { return cmp.Compare(x.ID, y.ID) })
		}
		return nil
	}
	if n := len(wants.InWarehouse); n > 0 {
		// Mappings found by warehouse bring their bins' codes along (the
		// strategy orders by them).
		if err := query("JOIN stock_mappings AS m ON m.article_detail_id = p.a AND m.warehouse_id = p.x JOIN bin_locations AS b ON b.id = m.bin_location_id",
			"b.code", " ORDER BY m.id", n, func(i int) (int64, int64) {
				return wants.InWarehouse[i].ArticleDetailID, wants.InWarehouse[i].WarehouseID
			}); err != nil {
			return nil, err
		}
	}
	if n := len(wants.OnBin); n > 0 {
		// A named bin was resolved with its code. One mapping per pair.
		if err := query("JOIN stock_mappings AS m ON m.bin_location_id = p.x AND m.article_detail_id = p.a",
			"''", "", n, func(i int) (int64, int64) { return wants.OnBin[i].ArticleDetailID, wants.OnBin[i].BinLocationID }); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// sqliteTake reads a stocktake as the driver answers it: a time, or the
// text bun wrote (sqliteTimeLayout), or NULL.
type sqliteTake struct{ t *time.Time }

func (v *sqliteTake) Scan(src any) error {
	switch x := src.(type) {
	case nil:
		v.t = nil
	case time.Time:
		u := x.UTC()
		v.t = &u
	case string:
		return v.parse(x)
	case []byte:
		return v.parse(string(x))
	default:
		return fmt.Errorf("stocktake: a %T", src)
	}
	return nil
}

func (v *sqliteTake) parse(s string) error {
	t, err := time.Parse(sqliteTimeLayout, s)
	if err != nil {
		return fmt.Errorf("stocktake %q: %w", s, err)
	}
	t = t.UTC()
	v.t = &t
	return nil
}

// sqlitePairsChunk pairs go into one SQLite statement: two parameters
// each, far below SQLite's limit of 32766.
const sqlitePairsChunk = 5000

// updateMappings is one set-based statement, its values bound as parameters
// (parsed once, not a thousand statement executions).
func (d *sqliteDialect) updateMappings(ctx context.Context, s *store, rows []mappingRow, changed int) error {
	c := newSQLiteColumns(len(rows))
	sqliteColumn(c, rows, "id", func(m *mappingRow) any { return m.ID })
	sets := []string{}
	if changed&changedStock != 0 {
		sqliteColumn(c, rows, "stock", func(m *mappingRow) any { return m.Stock })
		sets = append(sets, "stock = v.stock")
	}
	if changed&changedReserved != 0 {
		sqliteColumn(c, rows, "reserved", func(m *mappingRow) any { return m.ReservedStock })
		sets = append(sets, "reserved_stock = v.reserved")
	}
	if changed&changedDefault != 0 {
		sqliteColumn(c, rows, "is_default", func(m *mappingRow) any { return m.IsDefault })
		sets = append(sets, "is_default = v.is_default")
	}
	if changed&changedTake != 0 {
		sqliteColumn(c, rows, "take", func(m *mappingRow) any { return sqliteTime(m.LastStockTake) })
		sets = append(sets, "last_stock_take = v.take")
	}
	return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return d.execPrepared(ctx, s, `WITH v(`+strings.Join(chunk.columns, ", ")+`) AS (VALUES `+chunk.tuples+`)
UPDATE stock_mappings SET `+strings.Join(sets, ", ")+` FROM v WHERE stock_mappings.id = v.id`, chunk.args...)
	})
}

// appendLedger binds the entries as parameters of multi-row inserts.
func (d *sqliteDialect) appendLedger(ctx context.Context, s *store, entries []stock.LedgerEntry) error {
	rows := make([]ledgerRow, len(entries))
	for i, e := range entries {
		rows[i] = ledgerRow{
			ArticleDetailID: e.ArticleDetailID, WarehouseID: e.WarehouseID, BinLocationID: e.BinLocationID,
			Type: string(e.Type), Quantity: e.Quantity, StockAfter: e.StockAfter,
			IdempotencyKey: optional(e.Ref.IdempotencyKey), OperationID: optional(e.Ref.OperationID),
			OrderID: optional(e.Ref.OrderID), OrderDetailID: optional(e.Ref.OrderDetailID),
			User: e.Ref.User, CreatedAt: e.CreatedAt.UTC(), PurchaseOrderID: optional(e.Ref.PurchaseOrderID),
			LotNumber: optional(e.LotNumber), CountID: optional(e.Ref.CountID), TransferID: optional(e.Ref.TransferID),
		}
	}
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
	if anyLot(entries) {
		sqliteColumn(c, rows, "lot_number", func(l *ledgerRow) any { return derefOrNil(l.LotNumber) })
	}
	if anyCount(entries) {
		sqliteColumn(c, rows, "count_id", func(l *ledgerRow) any { return derefOrNil(l.CountID) })
	}
	if anyTransfer(entries) {
		sqliteColumn(c, rows, "transfer_id", func(l *ledgerRow) any { return derefOrNil(l.TransferID) })
	}
	return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return d.execPrepared(ctx, s, chunk.insert("stock_ledger_entries"), chunk.args...)
	})
}

// deleteLotStock deletes through the key's index, in statements of
// lotStockPerInsert mappings.
func (d *sqliteDialect) deleteLotStock(ctx context.Context, s *store, mappings []mappingKeyOf) error {
	for start := 0; start < len(mappings); start += lotStockPerInsert {
		chunk := mappings[start:min(start+lotStockPerInsert, len(mappings))]
		args := make([]any, 0, 2*len(chunk))
		for _, m := range chunk {
			args = append(args, m.article, m.bin)
		}
		if err := d.execPrepared(ctx, s, `DELETE FROM lot_stock WHERE (article_detail_id, bin_location_id) IN (VALUES `+
			strings.TrimSuffix(strings.Repeat("(?, ?), ", len(chunk)), ", ")+`)`, args...); err != nil {
			return err
		}
	}
	return nil
}

// updateLots is one set-based statement per sqliteRowsChunk rows, like
// updateMappings.
func (d *sqliteDialect) updateLots(ctx context.Context, s *store, rows []lotStockRow) error {
	c := newSQLiteColumns(len(rows))
	sqliteColumn(c, rows, "a", func(r *lotStockRow) any { return r.ArticleDetailID })
	sqliteColumn(c, rows, "b", func(r *lotStockRow) any { return r.BinLocationID })
	sqliteColumn(c, rows, "n", func(r *lotStockRow) any { return r.LotNumber })
	sqliteColumn(c, rows, "stock", func(r *lotStockRow) any { return r.Stock })
	sqliteColumn(c, rows, "reserved", func(r *lotStockRow) any { return r.ReservedStock })
	return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return d.execPrepared(ctx, s, `WITH v(`+strings.Join(chunk.columns, ", ")+`) AS (VALUES `+chunk.tuples+`)
UPDATE lot_stock SET stock = v.stock, reserved_stock = v.reserved FROM v
WHERE lot_stock.article_detail_id = v.a AND lot_stock.bin_location_id = v.b AND lot_stock.lot_number = v.n`, chunk.args...)
	})
}

func (d *sqliteDialect) queryKept(ctx context.Context, s *store, query string, args ...any) (*sql.Rows, func(), error) {
	return d.queryPrepared(ctx, s, query, args...)
}

// deleteLots deletes through the key's index, in statements of
// lotStockPerInsert rows.
func (d *sqliteDialect) deleteLots(ctx context.Context, s *store, rows []lotStockKey) error {
	for start := 0; start < len(rows); start += lotStockPerInsert {
		chunk := rows[start:min(start+lotStockPerInsert, len(rows))]
		args := make([]any, 0, 3*len(chunk))
		for _, r := range chunk {
			args = append(args, r.mapping.article, r.mapping.bin, r.number)
		}
		if err := d.execPrepared(ctx, s, `DELETE FROM lot_stock WHERE (article_detail_id, bin_location_id, lot_number) IN (VALUES `+
			strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(chunk)), ", ")+`)`, args...); err != nil {
			return err
		}
	}
	return nil
}

// derefOrNil is what a pointer points at, or nil (NULL).
func derefOrNil[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// saveSnapshots writes snapshots that LockSnapshots returned (so their
// rows exist).
func (d *sqliteDialect) saveSnapshots(ctx context.Context, s *store, snapshots []ports.StockSnapshot) error {
	c := newSQLiteColumns(len(snapshots))
	sqliteColumn(c, snapshots, "id", func(s *ports.StockSnapshot) any { return s.ArticleDetailID })
	sqliteColumn(c, snapshots, "figures", func(s *ports.StockSnapshot) any { return s.Figures })
	sqliteColumn(c, snapshots, "below", func(s *ports.StockSnapshot) any { return s.Below })
	sqliteColumn(c, snapshots, "outstanding", func(s *ports.StockSnapshot) any { return s.Outstanding })
	return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return d.execPrepared(ctx, s, `WITH v(id, figures, below, outstanding) AS (VALUES `+chunk.tuples+`)
UPDATE stock_snapshots SET figures = v.figures, below = v.below, outstanding = v.outstanding FROM v WHERE stock_snapshots.article_detail_id = v.id`, chunk.args...)
	})
}

// lockedSnapshots reads the snapshots and then the figures; the immediate
// transaction holds the whole database already.
func (d *sqliteDialect) lockedSnapshots(ctx context.Context, s *store, ids, warehouseIDs []int64) ([]lockedSnapshotRow, stockOf, error) {
	stockOf := newStockOf(len(ids))
	// Scanned column by column: a batch reads a hundred of these.
	rows, done, err := s.queryIDs(ctx, lockedSnapshotsSQL, ids)
	if err != nil {
		return nil, stockOf, err
	}
	defer done()
	defer rows.Close()
	out := make([]lockedSnapshotRow, 0, len(ids))
	for rows.Next() {
		var row lockedSnapshotRow
		var reorderPoint, outstanding, incoming, inTransit int64
		if err := rows.Scan(&row.ArticleDetailID, &row.Figures, &row.Below, &outstanding, &row.Number, &row.Name, &reorderPoint, &row.EAN, &row.LotTracked, &incoming, &inTransit); err != nil {
			return nil, stockOf, err
		}
		row.ReorderPoint, row.Outstanding, row.Incoming = int(reorderPoint), int(outstanding), int(incoming)
		row.InTransit = int(inTransit)
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, stockOf, err
	}
	if stockOf.stocks, stockOf.outstanding, err = (figures{s}).StockOf(ctx, ids); err != nil || len(warehouseIDs) == 0 {
		return out, stockOf, err
	}
	var whs []struct {
		ID      int64  `bun:"id"`
		Code    string `bun:"code"`
		ForSale bool   `bun:"stock_available_for_sale"`
	}
	if err := s.idb.NewSelect().TableExpr("warehouses").Column("id", "code", "stock_available_for_sale").
		Where("id IN (?)", bun.List(warehouseIDs)).Scan(ctx, &whs); err != nil {
		return nil, stockOf, err
	}
	for _, w := range whs {
		stockOf.warehouses[w.ID] = domainstock.WarehouseStock{WarehouseID: w.ID, WarehouseCode: w.Code, StockAvailableForSale: w.ForSale}
	}
	return out, stockOf, nil
}

// dropTotals deletes row by row through one kept statement.
func (d *sqliteDialect) dropTotals(ctx context.Context, s *store, gone []domainstock.WarehouseTotal) error {
	for _, t := range gone {
		if err := d.execPrepared(ctx, s, "DELETE FROM stock_totals WHERE article_detail_id = ? AND warehouse_id = ?", t.ArticleDetailID, t.WarehouseID); err != nil {
			return err
		}
	}
	return nil
}

func (d *sqliteDialect) keepTotals(ctx context.Context, s *store, kept []domainstock.WarehouseTotal) error {
	c := newSQLiteColumns(len(kept))
	sqliteColumn(c, kept, "article_detail_id", func(t *domainstock.WarehouseTotal) any { return t.ArticleDetailID })
	sqliteColumn(c, kept, "warehouse_id", func(t *domainstock.WarehouseTotal) any { return t.WarehouseID })
	sqliteColumn(c, kept, "stock", func(t *domainstock.WarehouseTotal) any { return t.Stock })
	sqliteColumn(c, kept, "reserved_stock", func(t *domainstock.WarehouseTotal) any { return t.ReservedStock })
	sqliteColumn(c, kept, "expired_stock", func(t *domainstock.WarehouseTotal) any { return t.Expired })
	sqliteColumn(c, kept, "mappings", func(t *domainstock.WarehouseTotal) any { return t.Mappings })
	return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return d.execPrepared(ctx, s, chunk.insert("stock_totals")+keepTotalsSet, chunk.args...)
	})
}

// record binds the events as parameters of one prepared statement, not
// formatted into its text, and queues their deliveries (events.fanOut).
func (d *sqliteDialect) record(ctx context.Context, s *store, snapshots []ports.StockSnapshot, evs []ports.NewEvent, at time.Time) error {
	if len(snapshots) > 0 {
		if err := d.saveSnapshots(ctx, s, snapshots); err != nil {
			return err
		}
	}
	if len(evs) == 0 {
		return nil
	}
	first, err := s.takePositions(ctx, len(evs))
	if err != nil {
		return err
	}
	rows := make([]eventRow, len(evs))
	for i, e := range evs {
		rows[i] = eventRow{ID: first + int64(i), N: 1, Type: e.Type, CreatedAt: at.UTC(), Data: string(e.Data)}
	}
	c := newSQLiteColumns(len(rows))
	sqliteColumn(c, rows, "id", func(e *eventRow) any { return e.ID })
	sqliteColumn(c, rows, "type", func(e *eventRow) any { return e.Type })
	sqliteColumn(c, rows, "created_at", func(e *eventRow) any { return sqliteTime(&e.CreatedAt) })
	sqliteColumn(c, rows, "data", func(e *eventRow) any { return e.Data })
	if err := c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return d.execPrepared(ctx, s, chunk.insert("events"), chunk.args...)
	}); err != nil {
		return err
	}
	return events{s}.fanOut(ctx, rows)
}

// saveOrders sends each table's rows as one JSON argument that json_each
// unpacks (sqlite_json.go), through statements whose text never changes and
// so stays prepared.
func (d *sqliteDialect) saveOrders(ctx context.Context, s *store, o orderStates) error {
	orderRows := make([][]any, len(o.orderIDs))
	for i := range o.orderIDs {
		orderRows[i] = []any{o.orderIDs[i], o.orderStatus[i], o.orderEmail[i]}
	}
	detailRows := make([][]any, len(o.detailIDs))
	for i := range o.detailIDs {
		detailRows[i] = []any{o.detailIDs[i], o.shipped[i], o.detailStatus[i], o.outstanding[i], o.returns[i]}
	}
	arg, err := jsonRows(orderRows)
	if err != nil {
		return err
	}
	if err := d.execPrepared(ctx, s, `UPDATE orders SET status = json_extract(v.value, '$[1]'), customer_email = json_extract(v.value, '$[2]')
FROM json_each(?) AS v WHERE orders.id = json_extract(v.value, '$[0]')`, arg); err != nil {
		return err
	}
	if arg, err = jsonRows(detailRows); err != nil {
		return err
	}
	return d.execPrepared(ctx, s, `UPDATE order_details SET shipped = json_extract(v.value, '$[1]'), status = json_extract(v.value, '$[2]'),
  outstanding = json_extract(v.value, '$[3]'), returned = json_extract(v.value, '$[4]')
FROM json_each(?) AS v WHERE order_details.id = json_extract(v.value, '$[0]')`, arg)
}

func (d *sqliteDialect) articleIDsByNumber(ctx context.Context, s *store, numbers []string) ([]articleNumberRow, error) {
	list, err := json.Marshal(numbers)
	if err != nil {
		return nil, err
	}
	var rows []articleNumberRow
	err = s.idb.NewRaw("SELECT id, number FROM article_details WHERE number IN (SELECT value FROM json_each(?))", string(list)).Scan(ctx, &rows)
	return rows, err
}

func (d *sqliteDialect) lockAndLoad(ctx context.Context, s *store, scope stock.Scope, now time.Time, warehouses []stock.KnownWarehouse, bins []stock.Bin, _ *foundArticles) (*stock.WorkingSet, error) {
	return lockThenLoad(ctx, s, scope, now, warehouses, bins)
}

// lockOrders: the immediate transaction holds the whole database, so the
// three statements need no care.
func (*sqliteDialect) lockOrders(ctx context.Context, s *store, ids []int64, numbers []string) ([]orderRow, []orderDetailRow, []reservationRow, error) {
	return lockOrdersApart(ctx, s, ids, numbers)
}
