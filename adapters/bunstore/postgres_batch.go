package bunstore

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/stock"
	domainstock "github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// lockAndLoad, in a write transaction, locks the products and reads their
// mappings in one pgx batch, one round trip: the mappings' statements start
// after the lock was granted, so they read what the previous holder
// committed. The working set is built once, before the batch, from what
// locations read of the products without their lock; should the lock find
// other products, or other lot-tracked ones (created, deleted or changed in
// between), the attempt starts over (errArticlesChanged).
//
// The lots of lot-tracked products come along (lotsBatch), only when the
// scope has some. So do the products' figures' rows, locked after the
// products in the lock order of every writer (queueLockedSnapshots): the
// commit step needs them, and reading them here spares it a round trip
// while the products are locked (ports.Saved.Figures).
func (pg postgresDialect) lockAndLoad(ctx context.Context, s *store, scope stock.Scope, now time.Time, warehouses []stock.KnownWarehouse, bins []stock.Bin, found *foundArticles) (*stock.WorkingSet, error) {
	ids := scope.Articles()
	if s.conn == nil || len(ids) == 0 || found == nil {
		return lockThenLoad(ctx, s, scope, now, warehouses, bins)
	}
	ws := stock.NewWorkingSet(scope, now, warehouses, bins, found.existing)
	needs := ws.MappingNeeds()
	var b pgx.Batch
	var locked, tracked []int64
	b.Queue(strings.ReplaceAll(lockArticlesTrackedSQL, inIDsMarker, "= ANY($1::bigint[])")+" FOR "+productLock, ids).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var id int64
			var lotTracked bool
			if err := rows.Scan(&id, &lotTracked); err != nil {
				return err
			}
			locked = append(locked, id)
			if lotTracked {
				tracked = append(tracked, id)
			}
		}
		return rows.Err()
	})
	var rows []loadedMappingRow
	queueMappings(&b, needs, &rows)
	var lots *lotsLoaded
	if len(found.tracked) > 0 {
		lots = queueLots(&b, found.tracked, needs)
	}
	known := make([]int64, len(warehouses))
	for i, w := range warehouses {
		known[i] = w.ID
	}
	figures := queueLockedSnapshots(&b, ids, known)
	var lockedByCounts []stock.Bin
	queueLockedBins(&b, warehouses, &lockedByCounts)
	if err := s.sendBatch(ctx, &b); err != nil {
		return nil, fmt.Errorf("lock article details and load their mappings: %w", err)
	}
	if !slices.Equal(locked, found.existing) || !slices.Equal(tracked, found.tracked) {
		return nil, errArticlesChanged
	}
	s.saved.LockedFigures(lockedOf(figures.rows, figures.stock))
	mappings, mappingBins, err := stockMappings{s}.loaded(rows)
	if err != nil {
		return nil, err
	}
	if err := lots.into(s, ws, mappings); err != nil {
		return nil, err
	}
	ws.Lock(lockedByCounts)
	ws.Loaded(needs, mappings, mappingBins)
	return ws, nil
}

// queueLots adds to b the reads of the tracked products' lots and of what
// the lots hold on the mappings wanted, found the way the mappings are
// (queueMappings); the answers fill the result as b's results are read.
func queueLots(b *pgx.Batch, tracked []int64, wants stock.MappingNeeds) *lotsLoaded {
	out := &lotsLoaded{tracked: tracked}
	b.Queue("SELECT article_detail_id, number, best_before, expiry_counted FROM lots WHERE article_detail_id = ANY($1::bigint[]) ORDER BY article_detail_id, id",
		tracked).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var l stock.Lot
			var date lotDate
			if err := rows.Scan(&l.ArticleDetailID, &l.Number, &date, &l.ExpiryCounted); err != nil {
				return err
			}
			l.BestBefore = date.t
			out.lots = append(out.lots, l)
		}
		return rows.Err()
	})
	isTracked := make(map[int64]bool, len(tracked))
	for _, id := range tracked {
		isTracked[id] = true
	}
	scan := func(rows pgx.Rows) error {
		for rows.Next() {
			var r lotStockRow
			if err := rows.Scan(&r.ArticleDetailID, &r.BinLocationID, &r.LotNumber, &r.Stock, &r.ReservedStock); err != nil {
				return err
			}
			out.addStock(r)
		}
		return rows.Err()
	}
	const lotStockOf = `SELECT ls.article_detail_id, ls.bin_location_id, ls.lot_number, ls.stock, ls.reserved_stock
FROM unnest($1::bigint[], $2::bigint[]) AS p(a, x)
CROSS JOIN LATERAL (SELECT * FROM lot_stock AS ls WHERE `
	var wa, wx, ba, bx []int64
	for _, p := range wants.InWarehouse {
		if isTracked[p.ArticleDetailID] {
			wa, wx = append(wa, p.ArticleDetailID), append(wx, p.WarehouseID)
		}
	}
	for _, p := range wants.OnBin {
		if isTracked[p.ArticleDetailID] {
			ba, bx = append(ba, p.ArticleDetailID), append(bx, p.BinLocationID)
		}
	}
	if len(wa) > 0 {
		b.Queue(lotStockOf+"ls.article_detail_id = p.a AND ls.warehouse_id = p.x OFFSET 0) AS ls", wa, wx).Query(scan)
	}
	if len(ba) > 0 {
		b.Queue(lotStockOf+"ls.article_detail_id = p.a AND ls.bin_location_id = p.x OFFSET 0) AS ls", ba, bx).Query(scan)
	}
	return out
}

// locations looks up the named warehouses and bins in one
// statement, one index-driven part per way of naming them. The share locks
// keep a bin location from being deleted under the batch, and a warehouse
// too: deleted while the batch runs, it would take its unknown bin location
// with it and break the mapping's foreign key; the key share lock makes the
// delete wait (and see the new stock). SQLite's immediate transaction holds
// the whole database instead.
//
// In a write transaction it also reads which of articles exist and which
// of those are lot-tracked (kind a), without their lock: lockAndLoad builds
// the working set from that and reads the lots only when some are.
func (pg postgresDialect) locations(ctx context.Context, s *store, wants stock.LocationNames, articles []int64) ([]stock.KnownWarehouse, []stock.Bin, *foundArticles, error) {
	var whIDs []int64
	var codesByID, whCodes, codesByCode []string
	for _, b := range wants.BinCodes {
		if b.WarehouseID != 0 {
			whIDs, codesByID = append(whIDs, b.WarehouseID), append(codesByID, b.Code)
		} else {
			whCodes, codesByCode = append(whCodes, b.WarehouseCode), append(codesByCode, b.Code)
		}
	}
	lockW, lockB := "", ""
	if s.write {
		lockW, lockB = " FOR KEY SHARE", " FOR SHARE OF b FOR KEY SHARE OF w"
	}
	var parts, selects []string
	var args []any
	part := func(name, query string, partArgs ...any) {
		parts = append(parts, name+" AS ("+query+")")
		selects = append(selects, "SELECT * FROM "+name)
		args = append(args, partArgs...)
	}
	const binColumns = "SELECT 'b' AS kind, " + locatedBinColumns
	// A bin named by code is looked up in the unique index, one pair at a
	// time (LATERAL … OFFSET 0): on data not analysed yet the planner would
	// otherwise compare every code with every bin of the warehouse, 124 ms
	// against 5 ms for 1000 codes in a warehouse of 1000 bins.
	const binByCode = "SELECT * FROM bin_locations AS b WHERE b.warehouse_id ="
	if len(wants.WarehouseIDs) > 0 || len(wants.WarehouseCodes) > 0 {
		part("wh", "SELECT 'w' AS kind, w.id, 0::bigint, '', w.code, w.null_bin_location_id FROM warehouses AS w"+
			" WHERE w.id = ANY(?::bigint[]) OR w.code = ANY(?::text[])"+lockW, pgdialect.Array(wants.WarehouseIDs), pgdialect.Array(wants.WarehouseCodes))
	}
	if len(wants.BinIDs) > 0 {
		part("b1", binColumns+" FROM bin_locations AS b JOIN warehouses AS w ON w.id = b.warehouse_id WHERE b.id = ANY(?::bigint[])"+lockB,
			pgdialect.Array(wants.BinIDs))
	}
	if len(whIDs) > 0 {
		part("b2", binColumns+" FROM unnest(?::bigint[], ?::text[]) AS p(w, c) CROSS JOIN LATERAL ("+binByCode+" p.w AND b.code = p.c OFFSET 0) AS b JOIN warehouses AS w ON w.id = b.warehouse_id"+lockB,
			pgdialect.Array(whIDs), pgdialect.Array(codesByID))
	}
	if len(whCodes) > 0 {
		part("b3", binColumns+" FROM unnest(?::text[], ?::text[]) AS p(wc, c) JOIN warehouses AS w ON w.code = p.wc CROSS JOIN LATERAL ("+binByCode+" w.id AND b.code = p.c OFFSET 0) AS b"+lockB,
			pgdialect.Array(whCodes), pgdialect.Array(codesByCode))
	}
	var found *foundArticles
	if s.conn != nil && len(articles) > 0 {
		found = &foundArticles{}
		part("ar", "SELECT 'a' AS kind, a.id, 0::bigint, '', '', a.lot_tracked::int::bigint FROM article_details AS a"+
			" WHERE a.id = ANY(?::bigint[])", pgdialect.Array(articles))
	}
	if len(parts) == 0 {
		return nil, nil, found, nil
	}
	rows, err := s.idb.QueryContext(ctx, "WITH "+strings.Join(parts, ", ")+" "+strings.Join(selects, " UNION ALL "), args...)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	seen := map[int64]bool{}
	var warehouses []stock.KnownWarehouse
	var bins []stock.Bin
	for rows.Next() {
		var kind, code, warehouseCode string
		var id, warehouseID int64
		var nullBin sql.NullInt64
		if err := rows.Scan(&kind, &id, &warehouseID, &code, &warehouseCode, &nullBin); err != nil {
			return nil, nil, nil, err
		}
		if kind == "a" {
			found.existing = append(found.existing, id)
			if nullBin.Int64 == 1 {
				found.tracked = append(found.tracked, id)
			}
			continue
		}
		w := stock.KnownWarehouse{ID: warehouseID, Code: warehouseCode, NullBinLocationID: nullBin.Int64}
		if kind == "w" {
			w.ID = id
		} else {
			bins = append(bins, stock.Bin{ID: id, WarehouseID: warehouseID, Code: code, IsNull: code == warehouse.NullBinLocationCode})
		}
		if !seen[w.ID] {
			seen[w.ID] = true
			warehouses = append(warehouses, w)
		}
	}
	if found != nil {
		slices.Sort(found.existing)
		slices.Sort(found.tracked)
	}
	return warehouses, bins, found, rows.Err()
}

// indexJoinsOn keeps PostgreSQL on nested loops over the unique indexes
// for the statements that follow it in the transaction: with default costs
// it otherwise prefers hashing a 1000-row list against a scan of the whole
// mapping table, which is several times slower. indexJoinsOff undoes it.
// Both go in one round trip with the statement they are for (execIndexJoins).
var (
	indexJoinsOn  = []string{"SET LOCAL enable_hashjoin = off", "SET LOCAL enable_mergejoin = off"}
	indexJoinsOff = []string{"SET LOCAL enable_hashjoin = on", "SET LOCAL enable_mergejoin = on"}
)

// execIndexJoins runs query between indexJoinsOn and indexJoinsOff, in the
// port call's batch (oneTrip).
func execIndexJoins(ctx context.Context, s *store, query string, args ...any) error {
	for _, set := range indexJoinsOn {
		if err := s.exec(ctx, set); err != nil {
			return err
		}
	}
	if err := s.exec(ctx, query, args...); err != nil {
		return err
	}
	for _, set := range indexJoinsOff {
		if err := s.exec(ctx, set); err != nil {
			return err
		}
	}
	return nil
}

// loadMappings reads the wanted mappings outside a write transaction (a
// write transaction reads them with the product lock, lockAndLoad), in one
// pgx batch.
func (pg postgresDialect) loadMappings(ctx context.Context, s *store, wants stock.MappingNeeds) ([]loadedMappingRow, error) {
	var b pgx.Batch
	var rows []loadedMappingRow
	queueMappings(&b, wants, &rows)
	if err := s.sendBatch(ctx, &b); err != nil {
		return nil, err
	}
	return rows, nil
}

// queueMappings adds to b the statements that read the wanted mappings, one
// per kind of want, whose rows it appends to out. Each answers one row per
// mapping in id order: its columns, and its bin's code when the want named
// none (else empty).
//
// They join the wanted pairs to the mappings through their indexes and take
// no row locks: every writer of mappings locks their products first, in id
// order, before it reads a mapping, so no other transaction can change
// these rows until this one ends, and reading after that lock sees what the
// previous writer committed. The pairs are looked up one by one (LATERAL …
// OFFSET 0 keeps the planner from hashing a thousand pairs against the
// whole table instead of using the unique indexes).
func queueMappings(b *pgx.Batch, wants stock.MappingNeeds, out *[]loadedMappingRow) {
	scan := func(rows pgx.Rows) error {
		for rows.Next() {
			var row loadedMappingRow
			if err := rows.Scan(&row.ID, &row.BinLocationID, &row.WarehouseID, &row.ArticleDetailID, &row.Stock, &row.ReservedStock,
				&row.IsDefault, &row.LastStockTake, &row.BinCode); err != nil {
				return err
			}
			if row.LastStockTake != nil {
				t := row.LastStockTake.UTC()
				row.LastStockTake = &t
			}
			*out = append(*out, row)
		}
		return rows.Err()
	}
	query := func(pairs, codes string, a, x []int64) {
		b.Queue(`SELECT m.id, m.bin_location_id, m.warehouse_id, m.article_detail_id,
    m.stock, m.reserved_stock, m.is_default, m.last_stock_take, `+codes+`
FROM unnest($1::bigint[], $2::bigint[]) AS p(a, x) CROSS JOIN LATERAL (SELECT * FROM stock_mappings AS m WHERE `+pairs+` OFFSET 0) AS m ORDER BY m.id`,
			a, x).Query(scan)
	}
	if n := len(wants.InWarehouse); n > 0 {
		a, w := make([]int64, n), make([]int64, n)
		for i, p := range wants.InWarehouse {
			a[i], w[i] = p.ArticleDetailID, p.WarehouseID
		}
		// Mappings found by warehouse bring their bins' codes along (the
		// strategy orders by them).
		query("m.article_detail_id = p.a AND m.warehouse_id = p.x",
			"(SELECT b.code FROM bin_locations AS b WHERE b.id = m.bin_location_id)", a, w)
	}
	if n := len(wants.OnBin); n > 0 {
		a, b := make([]int64, n), make([]int64, n)
		for i, p := range wants.OnBin {
			a[i], b[i] = p.ArticleDetailID, p.BinLocationID
		}
		// A named bin was resolved with its code.
		query("m.bin_location_id = p.x AND m.article_detail_id = p.a", "''", a, b)
	}
}

// updateMappings sends what every row shares once; the planner is kept on
// the unique index for this one statement (see indexJoinsOn), in the same
// round trip.
func (pg postgresDialect) updateMappings(ctx context.Context, s *store, rows []mappingRow, changed int) error {
	var c pgColumns
	pgColumn(&c, rows, "id", "bigint", func(m *mappingRow) int64 { return m.ID })
	if changed&changedStock != 0 {
		pgColumn(&c, rows, "stock", "int", func(m *mappingRow) int64 { return int64(m.Stock) })
	}
	if changed&changedReserved != 0 {
		pgColumn(&c, rows, "reserved_stock", "int", func(m *mappingRow) int64 { return int64(m.ReservedStock) })
	}
	if changed&changedDefault != 0 {
		pgColumn(&c, rows, "is_default", "boolean", func(m *mappingRow) bool { return m.IsDefault })
	}
	if changed&changedTake != 0 {
		pgColumn(&c, rows, "last_stock_take", "timestamptz", func(m *mappingRow) *time.Time { return m.LastStockTake })
	}
	return execIndexJoins(ctx, s, c.update("stock_mappings", "m"), c.args...)
}

// appendLedger sends the entries as one array per column (far less text
// for the server to parse than a thousand-row VALUES list), and a column
// whose value every entry shares (the batch's key, user, time, type) as one
// value.
func (pg postgresDialect) appendLedger(ctx context.Context, s *store, entries []stock.LedgerEntry) error {
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
	if anyLot(entries) {
		pgColumn(&c, entries, "lot_number", "text", func(e *stock.LedgerEntry) *string { return optional(e.LotNumber) })
	}
	if anyCount(entries) {
		pgColumn(&c, entries, "count_id", "bigint", func(e *stock.LedgerEntry) *int64 { return optional(e.Ref.CountID) })
	}
	if anyTransfer(entries) {
		pgColumn(&c, entries, "transfer_id", "bigint", func(e *stock.LedgerEntry) *int64 { return optional(e.Ref.TransferID) })
	}
	return s.exec(ctx, c.insert("stock_ledger_entries"), c.args...)
}

// deleteLotStock sends the mappings as two arrays and keeps the planner on
// the key's index (see indexJoinsOn).
func (pg postgresDialect) deleteLotStock(ctx context.Context, s *store, mappings []mappingKeyOf) error {
	articles, bins := make([]int64, len(mappings)), make([]int64, len(mappings))
	for i, m := range mappings {
		articles[i], bins[i] = m.article, m.bin
	}
	return execIndexJoins(ctx, s, `DELETE FROM lot_stock AS ls USING unnest(?::bigint[], ?::bigint[]) AS p(a, b)
WHERE ls.article_detail_id = p.a AND ls.bin_location_id = p.b`, pgdialect.Array(articles), pgdialect.Array(bins))
}

// updateLots sends each column as one array (what every row shares as one
// value) and keeps the planner on the key's index, like updateMappings.
func (pg postgresDialect) updateLots(ctx context.Context, s *store, rows []lotStockRow) error {
	var c pgColumns
	pgColumn(&c, rows, "article_detail_id", "bigint", func(r *lotStockRow) int64 { return r.ArticleDetailID })
	pgColumn(&c, rows, "bin_location_id", "bigint", func(r *lotStockRow) int64 { return r.BinLocationID })
	pgColumn(&c, rows, "lot_number", "text", func(r *lotStockRow) string { return r.LotNumber })
	pgColumn(&c, rows, "stock", "int", func(r *lotStockRow) int64 { return int64(r.Stock) })
	pgColumn(&c, rows, "reserved_stock", "int", func(r *lotStockRow) int64 { return int64(r.ReservedStock) })
	return execIndexJoins(ctx, s, c.updateKeyed("lot_stock", "ls", 3), c.args...)
}

// queryKept: nothing is kept prepared (the simple protocol).
func (pg postgresDialect) queryKept(ctx context.Context, s *store, query string, args ...any) (*sql.Rows, func(), error) {
	rows, err := s.idb.QueryContext(ctx, query, args...)
	return rows, func() {}, err
}

// deleteLots sends the rows' keys as three arrays, like deleteLotStock.
func (pg postgresDialect) deleteLots(ctx context.Context, s *store, rows []lotStockKey) error {
	articles, bins, numbers := make([]int64, len(rows)), make([]int64, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		articles[i], bins[i], numbers[i] = r.mapping.article, r.mapping.bin, r.number
	}
	return execIndexJoins(ctx, s, `DELETE FROM lot_stock AS ls USING unnest(?::bigint[], ?::bigint[], ?::text[]) AS p(a, b, n)
WHERE ls.article_detail_id = p.a AND ls.bin_location_id = p.b AND ls.lot_number = p.n`,
		pgdialect.Array(articles), pgdialect.Array(bins), pgdialect.Array(numbers))
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
func (c *pgColumns) update(table, alias string) string { return c.updateKeyed(table, alias, 1) }

// updateKeyed is update for a key of the first keys columns.
func (c *pgColumns) updateKeyed(table, alias string, keys int) string {
	sets := make([]string, len(c.names)-keys)
	for i := range sets {
		sets[i] = c.names[i+keys] + " = " + c.values[i+keys]
	}
	scalarKeys := 0
	conds := make([]string, keys)
	for i := range conds {
		conds[i] = alias + "." + c.names[i] + " = " + c.values[i]
		if !strings.HasPrefix(c.values[i], "u.") {
			scalarKeys++
		}
	}
	from := c.from()
	// The key's placeholders, if any, come last in the text.
	c.args = append(slices.Clone(c.args[scalarKeys:]), c.args[:scalarKeys]...)
	return "UPDATE " + table + " AS " + alias + " SET " + strings.Join(sets, ", ") + from +
		" WHERE " + strings.Join(conds, " AND ")
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

var (
	lockSnapshotsPostgres = "SELECT article_detail_id FROM stock_snapshots WHERE article_detail_id = ANY($1::bigint[]) ORDER BY article_detail_id FOR UPDATE"
	snapshotsPostgres     = strings.ReplaceAll(lockedSnapshotsSQL, inIDsMarker, "= ANY($1::bigint[])")
	stockOfPostgres       = strings.ReplaceAll(stockOfSQL, inIDsMarker, "= ANY($1::bigint[])")
	warehousesPostgres    = "SELECT id, code, stock_available_for_sale FROM warehouses WHERE id = ANY($1::bigint[])"
)

// recordSeparator separates the events' data in a row of several.
const recordSeparator = 0x1e

// record's statements travel in the round trip of Events().Record
// (oneTrip), the transaction's last before its COMMIT. They run in this
// order: the snapshots' update, outside the span that holds the feed lock;
// the feed counter's
// update, whose row lock orders the recording transactions by commit (see
// takePositions), with the events as one row from the first of its
// positions; then the deliveries, in a statement that starts after the feed
// lock was granted and so sees every webhook change committed before. The
// events travel, and are stored, as two texts: the types joined by commas,
// the data (JSON each) by the ASCII record separator, which JSON text never
// holds unescaped.
func (pg postgresDialect) record(ctx context.Context, s *store, snapshots []ports.StockSnapshot, evs []ports.NewEvent, at time.Time) error {
	ids, figures, below, outstanding := make([]int64, len(snapshots)), make([]string, len(snapshots)), make([]bool, len(snapshots)), make([]int64, len(snapshots))
	for i, s := range snapshots {
		ids[i], figures[i], below[i], outstanding[i] = s.ArticleDetailID, s.Figures, s.Below, int64(s.Outstanding)
	}
	size := 0
	for _, e := range evs {
		size += len(e.Data) + 1
	}
	types := make([]byte, 0, len(evs)*len(event.StockChanged))
	data := make([]byte, 0, size)
	for i, e := range evs {
		if bytes.IndexByte(e.Data, recordSeparator) >= 0 {
			return fmt.Errorf("event %s: its data holds a raw record separator, which JSON text never does", e.Type)
		}
		if i > 0 {
			types, data = append(types, ','), append(data, recordSeparator)
		}
		types, data = append(types, e.Type...), append(data, e.Data...)
	}
	if len(snapshots) > 0 {
		if err := s.exec(ctx, `UPDATE stock_snapshots AS s SET figures = v.figures, below = v.below, outstanding = v.outstanding
FROM unnest(?::bigint[], ?::text[], ?::boolean[], ?::bigint[]) AS v(id, figures, below, outstanding)
WHERE s.article_detail_id = v.id`, pgdialect.Array(ids), pgdialect.Array(figures), pgdialect.Array(below), pgdialect.Array(outstanding)); err != nil {
			return err
		}
	}
	if len(evs) == 0 {
		return nil
	}
	n := len(evs)
	if err := s.exec(ctx, `WITH taken AS (UPDATE event_feed SET value = value + ? WHERE name = 'last' RETURNING value)
INSERT INTO events (id, n, type, created_at, data) SELECT value - ? + 1, ?, ?, ?::timestamptz, ? FROM taken`,
		n, n, n, longText(types), at.UTC(), longText(data)); err != nil {
		return err
	}
	return s.exec(ctx, `INSERT INTO webhook_deliveries (webhook_id, event_id, type, status, next_attempt_at, created_at)
SELECT s.webhook_id, f.value - ? + e.ord, e.type, 'pending', clock_timestamp(), clock_timestamp()
FROM event_feed AS f, string_to_table(?, ',') WITH ORDINALITY AS e(type, ord)
JOIN webhook_subscriptions AS s ON s.event_type = e.type
WHERE f.name = 'last'
ORDER BY s.webhook_id, e.ord`, n, longText(types))
}

// lockedSnapshots sends the lock and the figures' reads as one pgx batch
// (queueLockedSnapshots).
func (pg postgresDialect) lockedSnapshots(ctx context.Context, s *store, ids, warehouseIDs []int64) ([]lockedSnapshotRow, stockOf, error) {
	var b pgx.Batch
	read := queueLockedSnapshots(&b, ids, warehouseIDs)
	if err := s.sendBatch(ctx, &b); err != nil {
		return nil, read.stock, err
	}
	return read.rows, read.stock, nil
}

// snapshotsRead is what queueLockedSnapshots reads, filled as its batch's
// results are read.
type snapshotsRead struct {
	rows  []lockedSnapshotRow
	stock stockOf
}

// queueLockedSnapshots adds to b the lock of the products' snapshots and
// the reads of what their figures are made of: the lock, FOR UPDATE of the
// snapshots, is a statement of its own and comes first, so the reads
// (the snapshots with their products, incoming and in-transit stock, then
// the figures' rows) start after it was granted and read what the
// previous holder committed. A lock that waited re-reads only the locked
// rows: had the lock read the joined rows along, a writer that reaches
// the snapshots without the products' lock (a purchase order changed or
// deleted locks its own row only) would read the incoming stock as it was
// before the wait, and write back a figure that loses the previous
// holder's change.
func queueLockedSnapshots(b *pgx.Batch, ids, warehouseIDs []int64) *snapshotsRead {
	out := &snapshotsRead{rows: make([]lockedSnapshotRow, 0, len(ids)), stock: newStockOf(len(ids))}
	b.Queue(lockSnapshotsPostgres, ids)
	b.Queue(snapshotsPostgres, ids).Query(func(r pgx.Rows) error {
		for r.Next() {
			var row lockedSnapshotRow
			if err := r.Scan(&row.ArticleDetailID, &row.Figures, &row.Below, &row.Outstanding, &row.Number, &row.Name,
				&row.ReorderPoint, &row.EAN, &row.LotTracked, &row.Incoming, &row.InTransit); err != nil {
				return err
			}
			out.rows = append(out.rows, row)
		}
		return r.Err()
	})
	b.Queue(stockOfPostgres, ids).Query(func(r pgx.Rows) error {
		for r.Next() {
			var kind, code string
			var article, warehouseID, total, reserved, expired, mappings int64
			var forSale bool
			if err := r.Scan(&kind, &article, &warehouseID, &code, &forSale, &total, &reserved, &expired, &mappings); err != nil {
				return err
			}
			out.stock.add(kind, article, warehouseID, code, forSale, total, reserved, expired, mappings)
		}
		return r.Err()
	})
	if len(warehouseIDs) > 0 {
		b.Queue(warehousesPostgres, warehouseIDs).Query(func(r pgx.Rows) error {
			for r.Next() {
				var w domainstock.WarehouseStock
				if err := r.Scan(&w.WarehouseID, &w.WarehouseCode, &w.StockAvailableForSale); err != nil {
					return err
				}
				out.stock.warehouses[w.WarehouseID] = w
			}
			return r.Err()
		})
	}
	return out
}

func (pg postgresDialect) dropTotals(ctx context.Context, s *store, gone []domainstock.WarehouseTotal) error {
	articles, warehouses := make([]int64, len(gone)), make([]int64, len(gone))
	for i, t := range gone {
		articles[i], warehouses[i] = t.ArticleDetailID, t.WarehouseID
	}
	return s.exec(ctx, `DELETE FROM stock_totals AS t USING unnest(?::bigint[], ?::bigint[]) AS g(a, w)
WHERE t.article_detail_id = g.a AND t.warehouse_id = g.w`, pgdialect.Array(articles), pgdialect.Array(warehouses))
}

func (pg postgresDialect) keepTotals(ctx context.Context, s *store, kept []domainstock.WarehouseTotal) error {
	n := len(kept)
	articles, warehouses, stocks, reserved, expired, mappings := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i, t := range kept {
		articles[i], warehouses[i], stocks[i], reserved[i], expired[i], mappings[i] = t.ArticleDetailID, t.WarehouseID, int64(t.Stock), int64(t.ReservedStock), int64(t.Expired), int64(t.Mappings)
	}
	return s.exec(ctx, `INSERT INTO stock_totals (article_detail_id, warehouse_id, stock, reserved_stock, expired_stock, mappings)
SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::int[])`+keepTotalsSet,
		pgdialect.Array(articles), pgdialect.Array(warehouses), pgdialect.Array(stocks), pgdialect.Array(reserved), pgdialect.Array(expired), pgdialect.Array(mappings))
}

// saveOrders sends each column as one array.
func (pg postgresDialect) saveOrders(ctx context.Context, s *store, o orderStates) error {
	if err := s.exec(ctx, `UPDATE orders AS o SET status = v.status, customer_email = v.email
FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, status, email) WHERE o.id = v.id`,
		pgdialect.Array(o.orderIDs), pgdialect.Array(o.orderStatus), pgdialect.Array(o.orderEmail)); err != nil {
		return err
	}
	return s.exec(ctx, `UPDATE order_details AS d SET shipped = v.shipped, status = v.status, outstanding = v.outstanding, returned = v.returned
FROM unnest(?::bigint[], ?::int[], ?::text[], ?::int[], ?::int[]) AS v(id, shipped, status, outstanding, returned) WHERE d.id = v.id`,
		pgdialect.Array(o.detailIDs), pgdialect.Array(o.shipped), pgdialect.Array(o.detailStatus), pgdialect.Array(o.outstanding), pgdialect.Array(o.returns))
}

func (postgresDialect) articleIDsByNumber(ctx context.Context, s *store, numbers []string) ([]articleNumberRow, error) {
	var rows []articleNumberRow
	err := s.idb.NewRaw("SELECT id, number FROM article_details WHERE number = ANY(?::text[])", pgdialect.Array(numbers)).Scan(ctx, &rows)
	return rows, err
}
