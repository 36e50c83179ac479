package bunstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

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
	warehouses, bins, err := r.locations(ctx, scope.Locations())
	if err != nil {
		return nil, err
	}
	if r.s.conn != nil && len(scope.Articles()) > 0 {
		return r.lockAndLoadPostgres(ctx, scope, now, warehouses, bins)
	}
	found, err := r.s.ArticleDetails().Lock(ctx, scope.Articles())
	if err != nil {
		return nil, err
	}
	existing := make([]int64, 0, len(found))
	for id, ok := range found {
		if ok {
			existing = append(existing, id)
		}
	}
	ws := stock.NewWorkingSet(scope, now, warehouses, bins, existing)
	needs := ws.MappingNeeds()
	rows, err := r.loadMappings(ctx, needs)
	if err != nil {
		return nil, err
	}
	mappings, mappingBins, err := r.loaded(rows)
	if err != nil {
		return nil, err
	}
	ws.Loaded(needs, mappings, mappingBins)
	return ws, nil
}

// lockAndLoadPostgres locks the products and reads their mappings in one
// round trip, two statements: the mappings' statement starts after the
// lock was granted, so it reads what the previous holder committed. The
// mappings asked for are those of every product the scope names, as if all
// existed; a product that does not has no mappings, so when the lock finds
// fewer, the working set of those that exist takes the same rows.
func (r stockMappings) lockAndLoadPostgres(ctx context.Context, scope stock.Scope, now time.Time, warehouses []stock.KnownWarehouse, bins []stock.Bin) (*stock.WorkingSet, error) {
	ids := scope.Articles()
	ws := stock.NewWorkingSet(scope, now, warehouses, bins, ids)
	needs := ws.MappingNeeds()
	queries, args := mappingQueriesPostgres(needs)
	queries = append([]string{strings.ReplaceAll(lockArticlesSQL, inIDsMarker, "?") + productLock}, queries...)
	args = append([]any{r.s.inIDs(ids)}, args...)
	results, err := r.s.queryAfterPending(ctx, queries, args...)
	if err != nil {
		return nil, fmt.Errorf("lock article details and load their mappings: %w", err)
	}
	if found := len(results[0].Rows); found < len(ids) {
		existing := make([]int64, 0, found)
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
	mappings, mappingBins, err := r.loaded(rows)
	if err != nil {
		return nil, err
	}
	ws.Loaded(needs, mappings, mappingBins)
	return ws, nil
}

// Save writes the working set's changed mappings and its ledger entries.
//
// On PostgreSQL the statements that need no answer (the delete, the
// updates, the ledger insert) wait in execSoon and go in one round trip with
// the transaction's next statement: for a batch that records events, the
// snapshot lock and the figures' read (events.lockedSnapshots).
func (r stockMappings) Save(ctx context.Context, ws *stock.WorkingSet) error {
	upserted, removed, entries := ws.Changes()
	if err := r.apply(ctx, upserted, removed); err != nil {
		return err
	}
	return (ledger{r.s}).append(ctx, entries)
}

func (r stockMappings) locations(ctx context.Context, wants stock.LocationNames) ([]stock.KnownWarehouse, []stock.Bin, error) {
	if r.s.db.postgres {
		return r.locationsPostgres(ctx, wants)
	}
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
		q := r.s.idb.NewSelect().Model(&rows).Column("id", "code", "null_bin_location_id")
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
	rows, err := r.locateSQLite(ctx, wants)
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

const locatedBinColumns = "b.id, b.warehouse_id, b.code, w.code AS warehouse_code, w.null_bin_location_id"

func (r stockMappings) locateSQLite(ctx context.Context, wants stock.LocationNames) ([]locatedBinRow, error) {
	var byID, byCode [][]any
	for _, b := range wants.BinCodes {
		if b.WarehouseID != 0 {
			byID = append(byID, []any{b.WarehouseID, b.Code})
		} else {
			byCode = append(byCode, []any{b.WarehouseCode, b.Code})
		}
	}
	var rows []locatedBinRow
	q := r.s.idb.NewSelect().TableExpr("bin_locations AS b").Join("JOIN warehouses AS w ON w.id = b.warehouse_id").
		ColumnExpr(locatedBinColumns)
	if len(wants.BinIDs) > 0 {
		q = q.WhereOr("b.id IN (?)", bun.List(wants.BinIDs))
	}
	if len(byID) > 0 {
		q = q.WhereOr("(b.warehouse_id, b.code) IN (?)", tuples(byID))
	}
	if len(byCode) > 0 {
		q = q.WhereOr("(w.code, b.code) IN (?)", tuples(byCode))
	}
	err := q.Scan(ctx, &rows)
	return rows, err
}

// locationsPostgres looks up the named warehouses and bins in one
// statement, one index-driven part per way of naming them. The share locks
// keep a bin location from being deleted under the batch, and a warehouse
// too: deleted while the batch runs, it would take its unknown bin location
// with it and break the mapping's foreign key; the key share lock makes the
// delete wait (and see the new stock). SQLite's immediate transaction holds
// the whole database instead.
func (r stockMappings) locationsPostgres(ctx context.Context, wants stock.LocationNames) ([]stock.KnownWarehouse, []stock.Bin, error) {
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
	if r.s.write {
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
	if len(wants.WarehouseIDs) > 0 || len(wants.WarehouseCodes) > 0 {
		part("wh", "SELECT 'w' AS kind, w.id, 0::bigint, '', w.code, w.null_bin_location_id FROM warehouses AS w"+
			" WHERE w.id = ANY(?::bigint[]) OR w.code = ANY(?::text[])"+lockW, pgdialect.Array(wants.WarehouseIDs), pgdialect.Array(wants.WarehouseCodes))
	}
	if len(wants.BinIDs) > 0 {
		part("b1", binColumns+" FROM bin_locations AS b JOIN warehouses AS w ON w.id = b.warehouse_id WHERE b.id = ANY(?::bigint[])"+lockB,
			pgdialect.Array(wants.BinIDs))
	}
	if len(whIDs) > 0 {
		part("b2", binColumns+" FROM unnest(?::bigint[], ?::text[]) AS p(w, c) JOIN bin_locations AS b ON b.warehouse_id = p.w AND b.code = p.c JOIN warehouses AS w ON w.id = b.warehouse_id"+lockB,
			pgdialect.Array(whIDs), pgdialect.Array(codesByID))
	}
	if len(whCodes) > 0 {
		part("b3", binColumns+" FROM unnest(?::text[], ?::text[]) AS p(wc, c) JOIN warehouses AS w ON w.code = p.wc JOIN bin_locations AS b ON b.warehouse_id = w.id AND b.code = p.c"+lockB,
			pgdialect.Array(whCodes), pgdialect.Array(codesByCode))
	}
	if len(parts) == 0 {
		return nil, nil, nil
	}
	rows, err := r.s.idb.QueryContext(ctx, "WITH "+strings.Join(parts, ", ")+" "+strings.Join(selects, " UNION ALL "), args...)
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

type loadedMappingRow struct {
	mappingRow `bun:",extend"`
	BinCode    string `bun:"bin_code"`
}

func (r stockMappings) loadMappings(ctx context.Context, wants stock.MappingNeeds) ([]loadedMappingRow, error) {
	if len(wants.InWarehouse) == 0 && len(wants.OnBin) == 0 {
		return nil, nil
	}
	if r.s.db.postgres {
		return r.loadMappingsPostgres(ctx, wants)
	}
	return r.loadMappingsSQLite(ctx, wants)
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

// loadMappingsSQLite reads the wanted mappings; SQLite's immediate transaction
// already holds the database, so there is nothing to lock row by row. The
// pairs are bound as parameters of a VALUES list, and the rows come back
// packed into one row of text (see unpackMappings): the driver's cost per
// column of a row is several times the engine's.
func (r stockMappings) loadMappingsSQLite(ctx context.Context, wants stock.MappingNeeds) ([]loadedMappingRow, error) {
	all := make([]loadedMappingRow, 0, len(wants.InWarehouse)+len(wants.OnBin))
	query := func(join, codes, order string, n int, pair func(i int) (int64, int64)) error {
		for start := 0; start < n; start += sqlitePairsChunk {
			end := min(start+sqlitePairsChunk, n)
			args := make([]any, 0, 2*(end-start))
			for i := start; i < end; i++ {
				a, x := pair(i)
				args = append(args, a, x)
			}
			rows, done, err := r.s.queryPrepared(ctx, `WITH p(a, x) AS (VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?), ", end-start), ", ")+`)
SELECT group_concat(m.id || ',' || m.bin_location_id || ',' || m.warehouse_id || ',' || m.article_detail_id || ',' || m.stock || ','
    || m.reserved_stock || ',' || m.is_default || ',' || COALESCE(m.last_stock_take, ''), ';'`+order+`),
  group_concat(`+codes+`, ''`+order+`)
FROM p `+join, args...)
			if err != nil {
				return err
			}
			var packed, packedCodes sql.NullString
			if rows.Next() {
				err = rows.Scan(&packed, &packedCodes)
			}
			if err == nil {
				err = rows.Err()
			}
			rows.Close()
			done()
			if err != nil {
				return err
			}
			found, err := unpackMappings(packed.String, packedCodes.String)
			if err != nil {
				return err
			}
			all = append(all, found...)
		}
		return nil
	}
	if n := len(wants.InWarehouse); n > 0 {
		// Mappings found by warehouse bring their bins' codes along (the
		// strategy orders by them).
		if err := query("JOIN stock_mappings AS m ON m.article_detail_id = p.a AND m.warehouse_id = p.x JOIN bin_locations AS b ON b.id = m.bin_location_id",
			"length(CAST(b.code AS BLOB)) || ':' || b.code", " ORDER BY m.id", n, func(i int) (int64, int64) {
				return wants.InWarehouse[i].ArticleDetailID, wants.InWarehouse[i].WarehouseID
			}); err != nil {
			return nil, err
		}
	}
	if n := len(wants.OnBin); n > 0 {
		// A named bin was resolved with its code. One mapping per pair,
		// found in the pairs' order (the working set's, sorted): no sort.
		if err := query("JOIN stock_mappings AS m ON m.bin_location_id = p.x AND m.article_detail_id = p.a",
			"'0:'", "", n, func(i int) (int64, int64) { return wants.OnBin[i].ArticleDetailID, wants.OnBin[i].BinLocationID }); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// sqlitePairsChunk pairs go into one SQLite statement: two parameters
// each, far below SQLite's limit of 32766.
const sqlitePairsChunk = 5000

func parsedTime(s string) (*time.Time, error) {
	t, err := time.Parse(sqliteTimeLayout, s)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// loadMappingsPostgres reads the wanted mappings outside a write
// transaction (a write transaction reads them with the product lock,
// lockAndLoadPostgres).
func (r stockMappings) loadMappingsPostgres(ctx context.Context, wants stock.MappingNeeds) ([]loadedMappingRow, error) {
	queries, args := mappingQueriesPostgres(wants)
	var all []loadedMappingRow
	for i, q := range queries {
		rows, err := r.s.idb.QueryContext(ctx, q, args[2*i], args[2*i+1])
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

// unpackMappings reads the mappings loadMappingsSQLite packs: records
// separated by ';', each the fields id, bin, warehouse, product, stock,
// reserved, default (0/1) and the last stocktake (empty for none, else as
// SQLite stores it) separated by ','; and the bins' codes, one per record,
// each its length in bytes, ':' and the code.
func unpackMappings(packed, codes string) ([]loadedMappingRow, error) {
	if packed == "" {
		return nil, nil
	}
	rows := make([]loadedMappingRow, 0, strings.Count(packed, ";")+1)
	for len(packed) > 0 {
		var record string
		record, packed, _ = strings.Cut(packed, ";")
		var n [7]int64
		rest := record
		for i := range n {
			var field string
			var more bool
			if field, rest, more = strings.Cut(rest, ","); !more {
				return nil, fmt.Errorf("packed mapping %q: want 8 fields", record)
			}
			v, ok := parseDecimal(field)
			if !ok {
				return nil, fmt.Errorf("packed mapping %q: field %d is not an integer", record, i+1)
			}
			n[i] = v
		}
		if strings.Contains(rest, ",") {
			return nil, fmt.Errorf("packed mapping %q: want 8 fields", record)
		}
		row := loadedMappingRow{mappingRow: mappingRow{ID: n[0], BinLocationID: n[1], WarehouseID: n[2], ArticleDetailID: n[3],
			Stock: int(n[4]), ReservedStock: int(n[5]), IsDefault: n[6] == 1}}
		if rest != "" {
			t, err := parsedTime(rest)
			if err != nil {
				return nil, fmt.Errorf("packed mapping %q: stocktake: %w", record, err)
			}
			row.LastStockTake = t
		}
		length, after, ok := strings.Cut(codes, ":")
		size, isInt := parseDecimal(length)
		if !ok || !isInt || size < 0 || size > int64(len(after)) {
			return nil, fmt.Errorf("packed bin codes at %q", codes[:min(len(codes), 40)])
		}
		row.BinCode, codes = after[:size], after[size:]
		rows = append(rows, row)
	}
	return rows, nil
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
		if err := r.s.execSoon(ctx, "DELETE FROM stock_mappings WHERE id ?", r.s.inIDs(ids)); err != nil {
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
		if err := r.s.flush(ctx); err != nil {
			return err
		}
		if _, err := r.s.idb.NewInsert().Model(&inserts).ExcludeColumn("id").Exec(ctx); err != nil {
			return err
		}
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
	var err error
	if r.s.db.postgres {
		err = r.updatePostgres(ctx, rows, changed)
	} else {
		err = r.updateSQLite(ctx, rows, changed)
	}
	if err == nil && r.s.loadedMappings != nil {
		for _, row := range rows {
			r.s.loadedMappings[row.ID] = row
		}
	}
	return err
}

// updatePostgres sends what every row shares once; the planner is kept on
// the unique index for this one statement (see indexJoinsOn), in the same
// round trip.
func (r stockMappings) updatePostgres(ctx context.Context, rows []mappingRow, changed int) error {
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
	return r.s.execSoon(ctx, indexJoinsOn+"; "+c.update("stock_mappings", "m")+"; "+indexJoinsOff, c.args...)
}

// updateSQLite is one set-based statement, its values bound as parameters
// (parsed once, not a thousand statement executions).
func (r stockMappings) updateSQLite(ctx context.Context, rows []mappingRow, changed int) error {
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
		return r.s.execPrepared(ctx, `WITH v(`+strings.Join(chunk.columns, ", ")+`) AS (VALUES `+chunk.tuples+`)
UPDATE stock_mappings SET `+strings.Join(sets, ", ")+` FROM v WHERE stock_mappings.id = v.id`, chunk.args...)
	})
}

func (r stockMappings) ArticleHasStock(ctx context.Context, articleDetailID int64) (bool, error) {
	return r.s.idb.NewSelect().Table("stock_mappings").Where("article_detail_id = ? AND stock > 0", articleDetailID).Exists(ctx)
}

func (r stockMappings) RemoveEmpty(ctx context.Context, articleDetailID int64) error {
	_, err := r.s.idb.NewDelete().Table("stock_mappings").Where("article_detail_id = ? AND stock = 0 AND reserved_stock = 0", articleDetailID).Exec(ctx)
	return err
}
