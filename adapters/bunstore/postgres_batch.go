package bunstore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/stock"
	domainstock "github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// lockAndLoad, in a write transaction, locks the products and reads their
// mappings in one round trip, two statements: the mappings' statement starts after the
// lock was granted, so it reads what the previous holder committed. The
// mappings asked for are those of every product the scope names, as if all
// existed; a product that does not has no mappings, so when the lock finds
// fewer, the working set of those that exist takes the same rows.
func (pg postgresDialect) lockAndLoad(ctx context.Context, s *store, scope stock.Scope, now time.Time, warehouses []stock.KnownWarehouse, bins []stock.Bin) (*stock.WorkingSet, error) {
	ids := scope.Articles()
	if s.conn == nil || len(ids) == 0 {
		return lockThenLoad(ctx, s, scope, now, warehouses, bins)
	}
	ws := stock.NewWorkingSet(scope, now, warehouses, bins, ids)
	needs := ws.MappingNeeds()
	queries, args := mappingQueriesPostgres(needs)
	queries = append([]string{strings.ReplaceAll(lockArticlesSQL, inIDsMarker, "?") + " FOR " + productLock}, queries...)
	args = append([]any{s.inIDs(ids)}, args...)
	warehouseIDs := make([]int64, len(warehouses))
	for i, w := range warehouses {
		warehouseIDs[i] = w.ID
	}
	queries, args = append(queries, lotsPostgres), append(args, pgdialect.Array(ids))
	queries, args = append(queries, snapshotQueries...), append(args, snapshotArgs(ids, warehouseIDs)...)
	results, err := s.queryAfterPending(ctx, queries, args...)
	if err != nil {
		return nil, fmt.Errorf("lock article details and load their mappings: %w", err)
	}
	snapshots := results[len(results)-len(snapshotQueries):]
	results = results[:len(results)-len(snapshotQueries)]
	lots, err := lotsFromText(results[len(results)-1])
	if err != nil {
		return nil, err
	}
	results = results[:len(results)-1]
	existing := ids
	if found := len(results[0].Rows); found < len(ids) {
		existing = make([]int64, 0, found)
		for _, row := range results[0].Rows {
			id, err := strconv.ParseInt(string(row[0]), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("lock article details: %w", err)
			}
			existing = append(existing, id)
		}
		ws = stock.NewWorkingSet(scope, now, warehouses, bins, existing)
		needs = ws.MappingNeeds()
	}
	var rows []loadedMappingRow
	for _, res := range results[1:] {
		for _, fields := range res.Rows {
			row, err := mappingFromText(fields)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
	}
	mappings, mappingBins, err := stockMappings{s}.loaded(rows)
	if err != nil {
		return nil, err
	}
	if err := lots.into(ws, mappings); err != nil {
		return nil, err
	}
	ws.Loaded(needs, mappings, mappingBins)
	if s.prelocked, err = prelock(snapshots, existing, warehouseIDs); err != nil {
		return nil, err
	}
	return ws, nil
}

// lotsPostgres reads, in lockAndLoad's round trip and after the products'
// lock, which of them are lot-tracked (kind t), their lots (l) and what the
// lots hold on each bin (s): a statement of its own that costs a scope
// without lot-tracked products one index probe per product and no round
// trip. Every column is text in the simple protocol's answer.
const lotsPostgres = `WITH t AS (SELECT id FROM article_details WHERE id = ANY(?::bigint[]) AND lot_tracked)
SELECT 't', t.id, NULL::text, NULL::text, NULL::boolean, NULL::bigint, NULL::int, NULL::int FROM t
UNION ALL
SELECT 'l', l.article_detail_id, l.number, to_char(l.best_before, 'YYYY-MM-DD'), l.expiry_counted, NULL, NULL, NULL
FROM t JOIN lots AS l ON l.article_detail_id = t.id
UNION ALL
SELECT 's', ls.article_detail_id, ls.lot_number, NULL, NULL, ls.bin_location_id, ls.stock, ls.reserved_stock
FROM t JOIN lot_stock AS ls ON ls.article_detail_id = t.id`

// lotsFromText reads the answer of lotsPostgres.
func lotsFromText(res *pgconn.Result) (*lotsLoaded, error) {
	if len(res.Rows) == 0 {
		return nil, nil
	}
	out := &lotsLoaded{}
	for _, row := range res.Rows {
		if len(row) != 8 {
			return nil, fmt.Errorf("load lots: a row of %d columns", len(row))
		}
		article, ok := parseDecimal(string(row[1]))
		if !ok {
			return nil, fmt.Errorf("load lots: article detail %q", row[1])
		}
		switch string(row[0]) {
		case "t":
			out.tracked = append(out.tracked, article)
		case "l":
			l := stock.Lot{ArticleDetailID: article, Number: string(row[2]), ExpiryCounted: string(row[4]) == "t"}
			if row[3] != nil {
				var d lotDate
				if err := d.parse(string(row[3])); err != nil {
					return nil, fmt.Errorf("load lots: %w", err)
				}
				l.BestBefore = d.t
			}
			out.lots = append(out.lots, l)
		case "s":
			bin, ok1 := parseDecimal(string(row[5]))
			n, ok2 := parseDecimal(string(row[6]))
			reserved, ok3 := parseDecimal(string(row[7]))
			if !ok1 || !ok2 || !ok3 {
				return nil, fmt.Errorf("load lot stock: a row of %q", row)
			}
			out.addStock(lotStockRow{ArticleDetailID: article, BinLocationID: bin, LotNumber: string(row[2]), Stock: int(n), ReservedStock: int(reserved)})
		}
	}
	return out, nil
}

// prelockedSnapshots are the products' feed snapshots, locked with the
// products in lockAndLoad's round trip, and what their figures are made
// of, read after that lock. What they hold changes only when the events
// are recorded (the totals, the demand, incomingStock are kept by the
// tracker, not by the writes before it), so lockedSnapshots may answer
// from them later in the transaction: a writer then holds its products'
// locks for one round trip less.
type prelockedSnapshots struct {
	rows       map[int64]lockedSnapshotRow
	stockOf    stockOf
	warehouses map[int64]bool
}

// prelock keeps the answers when every product that exists has its
// snapshot (else lockedSnapshots creates the missing ones its own way).
func prelock(results []*pgconn.Result, existing, warehouseIDs []int64) (*prelockedSnapshots, error) {
	rows, stockOf, err := lockedSnapshotsFrom(results, len(existing))
	if err != nil || len(rows) != len(existing) {
		return nil, err
	}
	p := &prelockedSnapshots{rows: make(map[int64]lockedSnapshotRow, len(rows)), stockOf: stockOf, warehouses: make(map[int64]bool, len(warehouseIDs))}
	for _, row := range rows {
		p.rows[row.ArticleDetailID] = row
	}
	for _, id := range warehouseIDs {
		p.warehouses[id] = true
	}
	return p, nil
}

// of answers lockedSnapshots for ids and warehouseIDs, if it can.
func (p *prelockedSnapshots) of(ids, warehouseIDs []int64) ([]lockedSnapshotRow, stockOf, bool) {
	out := newStockOf(len(ids))
	rows := make([]lockedSnapshotRow, 0, len(ids))
	for _, id := range ids {
		row, ok := p.rows[id]
		if !ok {
			return nil, out, false
		}
		rows = append(rows, row)
		if ws, ok := p.stockOf.stocks[id]; ok {
			out.stocks[id] = ws
		}
		if n, ok := p.stockOf.outstanding[id]; ok {
			out.outstanding[id] = n
		}
	}
	for _, id := range warehouseIDs {
		if !p.warehouses[id] {
			return nil, out, false
		}
		if w, ok := p.stockOf.warehouses[id]; ok {
			out.warehouses[id] = w
		}
	}
	return rows, out, true
}

// locations looks up the named warehouses and bins in one
// statement, one index-driven part per way of naming them. The share locks
// keep a bin location from being deleted under the batch, and a warehouse
// too: deleted while the batch runs, it would take its unknown bin location
// with it and break the mapping's foreign key; the key share lock makes the
// delete wait (and see the new stock). SQLite's immediate transaction holds
// the whole database instead.
func (pg postgresDialect) locations(ctx context.Context, s *store, wants stock.LocationNames) ([]stock.KnownWarehouse, []stock.Bin, error) {
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
	if len(parts) == 0 {
		return nil, nil, nil
	}
	rows, err := s.idb.QueryContext(ctx, "WITH "+strings.Join(parts, ", ")+" "+strings.Join(selects, " UNION ALL "), args...)
	if err != nil {
		return nil, nil, err
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
			return nil, nil, err
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
	return warehouses, bins, rows.Err()
}

// indexJoinsOn keeps PostgreSQL on nested loops over the unique indexes
// for the statements that follow it in the transaction: with default costs
// it otherwise prefers hashing a 1000-row list against a scan of the whole
// mapping table, which is several times slower. indexJoinsOff undoes it.
// Both go in one round trip with the statement they are for.
const (
	indexJoinsOn  = "SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off"
	indexJoinsOff = "SET LOCAL enable_hashjoin = on; SET LOCAL enable_mergejoin = on"
)

// loadMappings reads the wanted mappings outside a write
// transaction (a write transaction reads them with the product lock,
// lockAndLoad).
func (pg postgresDialect) loadMappings(ctx context.Context, s *store, wants stock.MappingNeeds) ([]loadedMappingRow, error) {
	queries, args := mappingQueriesPostgres(wants)
	var all []loadedMappingRow
	for i, q := range queries {
		rows, err := s.idb.QueryContext(ctx, q, args[2*i], args[2*i+1])
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var row loadedMappingRow
			var micros sql.NullInt64
			if err = rows.Scan(&row.ID, &row.BinLocationID, &row.WarehouseID, &row.ArticleDetailID, &row.Stock, &row.ReservedStock,
				&row.IsDefault, &micros, &row.BinCode); err != nil {
				break
			}
			if micros.Valid {
				t := time.UnixMicro(micros.Int64).UTC()
				row.LastStockTake = &t
			}
			all = append(all, row)
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return all, nil
}

// mappingFromText reads one row of mappingQueriesPostgres as the simple
// protocol answers it: every column in text, NULL as nil.
func mappingFromText(fields [][]byte) (loadedMappingRow, error) {
	if len(fields) != 9 {
		return loadedMappingRow{}, fmt.Errorf("load mappings: want 9 columns, got %d", len(fields))
	}
	var n [6]int64
	for i := range n {
		v, ok := parseDecimal(string(fields[i]))
		if !ok {
			return loadedMappingRow{}, fmt.Errorf("load mappings: column %d, %q, is not an integer", i+1, fields[i])
		}
		n[i] = v
	}
	row := loadedMappingRow{mappingRow: mappingRow{ID: n[0], BinLocationID: n[1], WarehouseID: n[2], ArticleDetailID: n[3],
		Stock: int(n[4]), ReservedStock: int(n[5]), IsDefault: string(fields[6]) == "t"}, BinCode: string(fields[8])}
	if fields[7] != nil {
		t, err := microsTake(string(fields[7]))
		if err != nil {
			return loadedMappingRow{}, fmt.Errorf("load mappings: stocktake: %w", err)
		}
		row.LastStockTake = t
	}
	return row, nil
}

// mappingQueriesPostgres are the statements that read the wanted mappings,
// one per kind of want, with their arguments, two each. Each answers one
// row per mapping in id order: its columns, the last stocktake in
// microseconds since 1970, and its bin's code when the want named none
// (else empty).
//
// They join the wanted pairs to the mappings through their indexes and take
// no row locks: every writer of mappings locks their products first, in id
// order, before it reads a mapping, so no other transaction can change
// these rows until this one ends, and reading after that lock sees what the
// previous writer committed. The pairs are looked up one by one (LATERAL …
// OFFSET 0 keeps the planner from hashing a thousand pairs against the
// whole table instead of using the unique indexes).
func mappingQueriesPostgres(wants stock.MappingNeeds) (queries []string, args []any) {
	query := func(pairs, codes string, a, x []int64) {
		queries = append(queries, `SELECT m.id, m.bin_location_id, m.warehouse_id, m.article_detail_id,
    m.stock, m.reserved_stock, m.is_default, (EXTRACT(EPOCH FROM m.last_stock_take) * 1000000)::bigint, `+codes+`
FROM unnest(?::bigint[], ?::bigint[]) AS p(a, x) CROSS JOIN LATERAL (SELECT * FROM stock_mappings AS m WHERE `+pairs+` OFFSET 0) AS m ORDER BY m.id`)
		args = append(args, pgdialect.Array(a), pgdialect.Array(x))
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
	return queries, args
}

// microsTake reads a stocktake in microseconds since 1970.
func microsTake(s string) (*time.Time, error) {
	micros, ok := parseDecimal(s)
	if !ok {
		return nil, fmt.Errorf("%q is not a number of microseconds", s)
	}
	t := time.UnixMicro(micros).UTC()
	return &t, nil
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
	return s.execSoon(ctx, indexJoinsOn+"; "+c.update("stock_mappings", "m")+"; "+indexJoinsOff, c.args...)
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
	return s.execSoon(ctx, c.insert("stock_ledger_entries"), c.args...)
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

var (
	lockSnapshotsPostgres = strings.ReplaceAll(lockedSnapshotsSQL, inIDsMarker, "= ANY(?::bigint[])") + " FOR UPDATE OF ss"
	stockOfPostgres       = strings.ReplaceAll(stockOfSQL, inIDsMarker, "= ANY(?::bigint[])")
	warehousesPostgres    = "SELECT id, code, stock_available_for_sale FROM warehouses WHERE id = ANY(?::bigint[])"
)

// recordSeparator separates the events' data in a row of several.
const recordSeparator = 0x1e

// record adds no round trip: its statements wait in execSoon and
// go with the COMMIT (postgresDialect.attempt), so that the span holding the
// feed lock is one round trip. They run in this order: the snapshots'
// update, outside the span that holds the feed lock; the feed counter's
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
		if err := s.execSoon(ctx, `UPDATE stock_snapshots AS s SET figures = v.figures, below = v.below, outstanding = v.outstanding
FROM unnest(?::bigint[], ?::text[], ?::boolean[], ?::bigint[]) AS v(id, figures, below, outstanding)
WHERE s.article_detail_id = v.id`, pgdialect.Array(ids), pgdialect.Array(figures), pgdialect.Array(below), pgdialect.Array(outstanding)); err != nil {
			return err
		}
	}
	if len(evs) == 0 {
		return nil
	}
	n := len(evs)
	return s.execSoon(ctx, `WITH taken AS (UPDATE event_feed SET value = value + ? WHERE name = 'last' RETURNING value)
INSERT INTO events (id, n, type, created_at, data) SELECT value - ? + 1, ?, ?, ?::timestamptz, ? FROM taken;
INSERT INTO webhook_deliveries (webhook_id, event_id, type, status, next_attempt_at, created_at)
SELECT s.webhook_id, f.value - ? + e.ord, e.type, 'pending', clock_timestamp(), clock_timestamp()
FROM event_feed AS f, string_to_table(?, ',') WITH ORDINALITY AS e(type, ord)
JOIN webhook_subscriptions AS s ON s.event_type = e.type
WHERE f.name = 'last'
ORDER BY s.webhook_id, e.ord`, n, n, n, longText(types), at.UTC(), longText(data), n, longText(types))
}

// lockedSnapshots sends the lock and the figures' read as statements of
// one round trip, with whatever execSoon holds before them (the batch's
// writes): the lock, FOR UPDATE of the snapshots (the products are locked
// by their writers already), is the first, so the figures' statement starts
// after it was granted and reads what the previous holder committed.
func (pg postgresDialect) lockedSnapshots(ctx context.Context, s *store, ids, warehouseIDs []int64) ([]lockedSnapshotRow, stockOf, error) {
	if p := s.prelocked; p != nil {
		s.prelocked = nil
		if rows, stockOf, ok := p.of(ids, warehouseIDs); ok {
			return rows, stockOf, nil
		}
	}
	results, err := s.queryAfterPending(ctx, snapshotQueries, snapshotArgs(ids, warehouseIDs)...)
	if err != nil {
		return nil, newStockOf(len(ids)), err
	}
	return lockedSnapshotsFrom(results, len(ids))
}

// snapshotQueries lock the snapshots and read what their figures are made
// of (lockedSnapshots); snapshotArgs are their arguments.
var snapshotQueries = []string{lockSnapshotsPostgres, stockOfPostgres, warehousesPostgres}

func snapshotArgs(ids, warehouseIDs []int64) []any {
	return []any{pgdialect.Array(ids), pgdialect.Array(ids), pgdialect.Array(ids), pgdialect.Array(warehouseIDs)}
}

// lockedSnapshotsFrom reads the answers of snapshotQueries.
func lockedSnapshotsFrom(results []*pgconn.Result, n int) ([]lockedSnapshotRow, stockOf, error) {
	stockOf := newStockOf(n)
	for _, row := range results[2].Rows {
		id, err := strconv.ParseInt(string(row[0]), 10, 64)
		if err != nil {
			return nil, stockOf, fmt.Errorf("warehouses: %w", err)
		}
		stockOf.warehouses[id] = domainstock.WarehouseStock{WarehouseID: id, WarehouseCode: string(row[1]), StockAvailableForSale: string(row[2]) == "t"}
	}
	out := make([]lockedSnapshotRow, 0, n)
	for _, row := range results[0].Rows {
		if len(row) != 10 {
			return nil, stockOf, fmt.Errorf("snapshots: a row of %d columns", len(row))
		}
		id, err1 := strconv.ParseInt(string(row[0]), 10, 64)
		outstanding, err2 := strconv.Atoi(string(row[3]))
		reorderPoint, err3 := strconv.Atoi(string(row[6]))
		incoming, err4 := strconv.Atoi(string(row[9]))
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return nil, stockOf, fmt.Errorf("snapshots: %w", err)
		}
		out = append(out, lockedSnapshotRow{
			ArticleDetailID: id, Figures: string(row[1]), Below: string(row[2]) == "t", Outstanding: outstanding,
			Number: string(row[4]), Name: string(row[5]), ReorderPoint: reorderPoint, EAN: string(row[7]),
			LotTracked: string(row[8]) == "t", Incoming: incoming,
		})
	}
	for _, row := range results[1].Rows {
		if err := stockOf.addText(row); err != nil {
			return nil, stockOf, err
		}
	}
	return out, stockOf, nil
}

func (pg postgresDialect) dropTotals(ctx context.Context, s *store, gone []domainstock.WarehouseTotal) error {
	articles, warehouses := make([]int64, len(gone)), make([]int64, len(gone))
	for i, t := range gone {
		articles[i], warehouses[i] = t.ArticleDetailID, t.WarehouseID
	}
	return pg.execSoon(ctx, s, `DELETE FROM stock_totals AS t USING unnest(?::bigint[], ?::bigint[]) AS g(a, w)
WHERE t.article_detail_id = g.a AND t.warehouse_id = g.w`, pgdialect.Array(articles), pgdialect.Array(warehouses))
}

func (pg postgresDialect) keepTotals(ctx context.Context, s *store, kept []domainstock.WarehouseTotal) error {
	n := len(kept)
	articles, warehouses, stocks, reserved, expired, mappings := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i, t := range kept {
		articles[i], warehouses[i], stocks[i], reserved[i], expired[i], mappings[i] = t.ArticleDetailID, t.WarehouseID, int64(t.Stock), int64(t.ReservedStock), int64(t.Expired), int64(t.Mappings)
	}
	return pg.execSoon(ctx, s, `INSERT INTO stock_totals (article_detail_id, warehouse_id, stock, reserved_stock, expired_stock, mappings)
SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::int[])`+keepTotalsSet,
		pgdialect.Array(articles), pgdialect.Array(warehouses), pgdialect.Array(stocks), pgdialect.Array(reserved), pgdialect.Array(expired), pgdialect.Array(mappings))
}

// saveOrders sends each column as one array, with the transaction's next
// round trip.
func (pg postgresDialect) saveOrders(ctx context.Context, s *store, o orderStates) error {
	if err := pg.execSoon(ctx, s, `UPDATE orders AS o SET status = v.status, customer_email = v.email
FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, status, email) WHERE o.id = v.id`,
		pgdialect.Array(o.orderIDs), pgdialect.Array(o.orderStatus), pgdialect.Array(o.orderEmail)); err != nil {
		return err
	}
	return pg.execSoon(ctx, s, `UPDATE order_details AS d SET shipped = v.shipped, status = v.status, outstanding = v.outstanding, returned = v.returned
FROM unnest(?::bigint[], ?::int[], ?::text[], ?::int[], ?::int[]) AS v(id, shipped, status, outstanding, returned) WHERE d.id = v.id`,
		pgdialect.Array(o.detailIDs), pgdialect.Array(o.shipped), pgdialect.Array(o.detailStatus), pgdialect.Array(o.outstanding), pgdialect.Array(o.returns))
}

func (postgresDialect) articleIDsByNumber(ctx context.Context, s *store, numbers []string) ([]articleNumberRow, error) {
	var rows []articleNumberRow
	err := s.idb.NewRaw("SELECT id, number FROM article_details WHERE number = ANY(?::text[])", pgdialect.Array(numbers)).Scan(ctx, &rows)
	return rows, err
}

// parseDecimal reads a decimal integer as the databases write it: an
// optional minus and at most 18 digits (every integer of a mapping fits).
func parseDecimal(s string) (int64, bool) {
	negative := strings.HasPrefix(s, "-")
	if negative {
		s = s[1:]
	}
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if negative {
		v = -v
	}
	return v, true
}
