package bunstore

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/calendar"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/errs"
	domorder "github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/ports"
)

type countRow struct {
	bun.BaseModel `bun:"table:counts,alias:c"`

	ID          int64     `bun:"id,pk,autoincrement"`
	WarehouseID int64     `bun:"warehouse_id"`
	Status      string    `bun:"status"`
	Blind       bool      `bun:"blind"`
	LockBins    bool      `bun:"lock_bins"`
	Articles    *string   `bun:"articles"`
	User        string    `bun:"user_name"`
	CreatedAt   time.Time `bun:"created_at"`
}

type countBinRow struct {
	bun.BaseModel `bun:"table:count_bins,alias:cb"`

	CountID       int64  `bun:"count_id,pk"`
	BinLocationID int64  `bun:"bin_location_id,pk"`
	Code          string `bun:"code"`
	Position      int64  `bun:"position"`
	Counted       bool   `bun:"counted"`
}

type countSnapshotRow struct {
	bun.BaseModel `bun:"table:count_snapshot,alias:cs"`

	CountID         int64  `bun:"count_id,pk"`
	BinLocationID   int64  `bun:"bin_location_id,pk"`
	ArticleDetailID int64  `bun:"article_detail_id,pk"`
	LotNumber       string `bun:"lot_number,pk"`
	Stock           int    `bun:"stock"`
}

type countLineRow struct {
	bun.BaseModel `bun:"table:count_lines,alias:cl"`

	CountID         int64   `bun:"count_id,pk"`
	BinLocationID   int64   `bun:"bin_location_id,pk"`
	ArticleDetailID int64   `bun:"article_detail_id,pk"`
	LotNumber       string  `bun:"lot_number,pk"`
	BestBefore      *string `bun:"best_before"`
	BestBeforeGiven bool    `bun:"best_before_given"`
	Quantity        int     `bun:"quantity"`
}

var countColumns = columns{
	"count.id": "c.id", "count.status": "c.status", "count.warehouseId": "c.warehouse_id",
	"count.blind": "c.blind", "count.lockBins": "c.lock_bins", "count.createdAt": "c.created_at",
}

func init() {
	ledgerColumns["stockLedgerEntry.countId"] = "l.count_id"
}

// countRowsChunk rows at most go into one insert: SQLite binds at most
// 32766 parameters a statement.
const countRowsChunk = 1000

type counts struct{ s *store }

func (s *store) Counts() ports.CountRepository { return counts{s} }

func (r counts) BinsOf(ctx context.Context, warehouseID int64, ids []int64, codes []string) (map[int64]string, map[string]int64, error) {
	byID, byCode := map[int64]string{}, map[string]int64{}
	type binRow struct {
		ID   int64  `bun:"id"`
		Code string `bun:"code"`
	}
	for start := 0; start < max(len(ids), len(codes)); start += countRowsChunk {
		q := r.s.idb.NewSelect().TableExpr("bin_locations").Column("id", "code").Where("warehouse_id = ?", warehouseID)
		var cond []string
		var args []any
		if start < len(ids) {
			cond, args = append(cond, "id IN (?)"), append(args, bun.List(ids[start:min(start+countRowsChunk, len(ids))]))
		}
		if start < len(codes) {
			cond, args = append(cond, "code IN (?)"), append(args, bun.List(codes[start:min(start+countRowsChunk, len(codes))]))
		}
		var rows []binRow
		if err := q.Where("("+strings.Join(cond, " OR ")+")", args...).Scan(ctx, &rows); err != nil {
			return nil, nil, err
		}
		for _, b := range rows {
			byID[b.ID], byCode[b.Code] = b.Code, b.ID
		}
	}
	return byID, byCode, nil
}

// coverage narrows a select of stock mappings (alias m) to what a count
// request covers: the bins, or the products, or the bins holding stock.
func coverage(q *bun.SelectQuery, warehouseID int64, bins, articles []int64) *bun.SelectQuery {
	q = q.Where("m.warehouse_id = ?", warehouseID)
	switch {
	case bins != nil:
		q = q.Where("m.bin_location_id IN (?)", bun.List(bins))
	case articles == nil:
		q = q.Where("m.bin_location_id IN (SELECT bin_location_id FROM stock_mappings WHERE warehouse_id = ? AND stock > 0)", warehouseID)
	}
	if articles != nil {
		q = q.Where("m.article_detail_id IN (?)", bun.List(articles))
	}
	return q
}

// LockBins takes the bins FOR NO KEY UPDATE: it waits for the share lock
// of every writer that named them and is not blocked by the key share
// locks that foreign keys take (a writer already holding a product this
// count must lock inserts ledger rows that point at the bin).
func (r counts) LockBins(ctx context.Context, warehouseID int64, bins []int64) error {
	lock := func(q *bun.SelectQuery) error {
		var locked []int64
		q = q.TableExpr("bin_locations").Column("id").Where("warehouse_id = ?", warehouseID).OrderExpr("id")
		return r.s.lockRows(q, "NO KEY UPDATE").Scan(ctx, &locked)
	}
	if bins == nil {
		return lock(r.s.idb.NewSelect())
	}
	sorted := slices.Sorted(slices.Values(bins))
	for start := 0; start < len(sorted); start += countRowsChunk {
		chunk := sorted[start:min(start+countRowsChunk, len(sorted))]
		if err := lock(r.s.idb.NewSelect().Where("id IN (?)", bun.List(chunk))); err != nil {
			return err
		}
	}
	return nil
}

func (r counts) ArticlesOn(ctx context.Context, warehouseID int64, bins, articles []int64) ([]int64, error) {
	ids := []int64{}
	q := coverage(r.s.idb.NewSelect().TableExpr("stock_mappings AS m").ColumnExpr("DISTINCT m.article_detail_id"), warehouseID, bins, articles)
	err := q.OrderExpr("m.article_detail_id").Scan(ctx, &ids)
	return ids, err
}

func (r counts) Snapshot(ctx context.Context, warehouseID int64, bins, articles []int64) ([]count.Holding, int64, error) {
	type holdingRow struct {
		BinLocationID   int64  `bun:"bin_location_id"`
		Code            string `bun:"code"`
		ArticleDetailID int64  `bun:"article_detail_id"`
		Lot             string `bun:"lot"`
		Tracked         bool   `bun:"lot_tracked"`
		Stock           int    `bun:"stock"`
		Position        int64  `bun:"position"`
	}
	var rows []holdingRow
	// One statement, one consistent read of the stock and the ledger's end.
	q := r.s.idb.NewSelect().TableExpr("stock_mappings AS m").
		Join("JOIN bin_locations AS b ON b.id = m.bin_location_id").
		Join("JOIN article_details AS a ON a.id = m.article_detail_id").
		Join("LEFT JOIN lot_stock AS ls ON ls.article_detail_id = m.article_detail_id AND ls.bin_location_id = m.bin_location_id").
		ColumnExpr("m.bin_location_id, b.code, m.article_detail_id, COALESCE(ls.lot_number, '') AS lot, a.lot_tracked").
		ColumnExpr("COALESCE(ls.stock, m.stock) AS stock").
		ColumnExpr("(SELECT COALESCE(MAX(id), 0) FROM stock_ledger_entries) AS position")
	if err := coverage(q, warehouseID, bins, articles).OrderExpr("m.bin_location_id, m.article_detail_id").Scan(ctx, &rows); err != nil {
		return nil, 0, err
	}
	var position int64
	if len(rows) == 0 {
		if err := r.s.idb.NewSelect().TableExpr("stock_ledger_entries").ColumnExpr("COALESCE(MAX(id), 0)").Scan(ctx, &position); err != nil {
			return nil, 0, err
		}
	}
	out := make([]count.Holding, len(rows))
	for i, row := range rows {
		position = row.Position
		out[i] = count.Holding{BinLocationID: row.BinLocationID, BinCode: row.Code, ArticleDetailID: row.ArticleDetailID,
			Lot: row.Lot, Tracked: row.Tracked, Stock: row.Stock}
	}
	return out, position, nil
}

func articlesText(ids []int64) *string {
	if ids == nil {
		return nil
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	s := strings.Join(parts, ",")
	return &s
}

func articlesOf(s *string) ([]int64, error) {
	if s == nil {
		return nil, nil
	}
	ids := []int64{}
	for _, p := range strings.Split(*s, ",") {
		if p == "" {
			continue
		}
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func insertChunks[T any](ctx context.Context, s *store, rows []T) error {
	for start := 0; start < len(rows); start += countRowsChunk {
		chunk := rows[start:min(start+countRowsChunk, len(rows))]
		if _, err := s.idb.NewInsert().Model(&chunk).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (r counts) Add(ctx context.Context, c *count.Count) error {
	row := &countRow{WarehouseID: c.WarehouseID(), Status: string(c.Status()), Blind: c.Blind(), LockBins: c.LockBins(),
		Articles: articlesText(c.Articles()), User: c.User(), CreatedAt: c.CreatedAt().UTC()}
	if _, err := r.s.idb.NewInsert().Model(row).Exec(ctx); err != nil {
		return err
	}
	c.Assign(row.ID)
	if err := r.claim(ctx, c); err != nil {
		return err
	}
	bins := c.Bins()
	binRows := make([]countBinRow, len(bins))
	var snapshot []countSnapshotRow
	for i, b := range bins {
		binRows[i] = countBinRow{CountID: row.ID, BinLocationID: b.BinLocationID, Code: b.Code, Position: b.Position}
		for _, e := range b.Snapshot {
			snapshot = append(snapshot, countSnapshotRow{CountID: row.ID, BinLocationID: b.BinLocationID,
				ArticleDetailID: e.ArticleDetailID, LotNumber: e.Lot, Stock: e.Stock})
		}
	}
	if err := insertChunks(ctx, r.s, binRows); err != nil {
		return err
	}
	return insertChunks(ctx, r.s, snapshot)
}

// claim takes the count's bins in count_open_bins, whose key is the bin:
// a bin another open count holds (committed, or committing while this
// insert waits for it) is not inserted, and the first such bin by code
// names the conflict.
func (r counts) claim(ctx context.Context, c *count.Count) error {
	ids := c.BinIDs()
	claimed := 0
	for start := 0; start < len(ids); start += countRowsChunk {
		chunk := ids[start:min(start+countRowsChunk, len(ids))]
		var values strings.Builder
		args := make([]any, 0, 4*len(chunk))
		for i, id := range chunk {
			if i > 0 {
				values.WriteString(", ")
			}
			values.WriteString("(?, ?, ?, ?)")
			args = append(args, id, c.ID(), c.WarehouseID(), c.LockBins())
		}
		var got []int64
		if err := r.s.idb.NewRaw("INSERT INTO count_open_bins (bin_location_id, count_id, warehouse_id, locked) VALUES "+
			values.String()+" ON CONFLICT (bin_location_id) DO NOTHING RETURNING bin_location_id", args...).Scan(ctx, &got); err != nil {
			return err
		}
		claimed += len(got)
	}
	if claimed == len(ids) {
		return nil
	}
	var other struct {
		Code    string `bun:"code"`
		BinID   int64  `bun:"bin_location_id"`
		CountID int64  `bun:"count_id"`
	}
	err := r.s.idb.NewSelect().TableExpr("count_open_bins AS ob").Join("JOIN bin_locations AS b ON b.id = ob.bin_location_id").
		ColumnExpr("b.code, ob.bin_location_id, ob.count_id").Where("ob.count_id <> ? AND ob.bin_location_id IN (?)", c.ID(), bun.List(ids)).
		OrderExpr("b.code, b.id").Limit(1).Scan(ctx, &other)
	if err != nil && err != sql.ErrNoRows {
		return err
	}
	// What this count claimed and its row go, so that a caller that goes
	// on in this transaction (OpenCountForBin) leaves nothing behind.
	if _, err := r.s.idb.NewDelete().Table("count_open_bins").Where("count_id = ?", c.ID()).Exec(ctx); err != nil {
		return err
	}
	if _, err := r.s.idb.NewDelete().Table("counts").Where("id = ?", c.ID()).Exec(ctx); err != nil {
		return err
	}
	return errs.Conflictf("bin location %q (id %d) is counted by open count %d: one open count per bin location", other.Code, other.BinID, other.CountID).
		On("binLocations").Breaks(count.BinOpenElsewhere).About(errs.Subject{BinLocation: other.BinID, Warehouse: c.WarehouseID()})
}

func (r counts) Get(ctx context.Context, id int64) (*count.Count, error) {
	var rows []countRow
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(&rows).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("count %d not found", id)
	}
	out, err := r.withBins(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (r counts) List(ctx context.Context, q ports.ListQuery) (ports.Page[*count.Count], error) {
	var rows []countRow
	total, err := page(ctx, r.s.idb, &rows, q, countColumns, ports.CountFields, "c.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	if err != nil {
		return ports.Page[*count.Count]{}, err
	}
	items, err := r.withBins(ctx, rows)
	return ports.Page[*count.Count]{Total: total, Items: items}, err
}

// withBins reads the bins, snapshots and lines of the count rows, a query
// each.
func (r counts) withBins(ctx context.Context, rows []countRow) ([]*count.Count, error) {
	out := make([]*count.Count, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var bins []countBinRow
	if err := r.s.idb.NewSelect().Model(&bins).Where("count_id IN (?)", bun.List(ids)).OrderExpr("count_id, bin_location_id").Scan(ctx); err != nil {
		return nil, err
	}
	var snapshot []countSnapshotRow
	if err := r.s.idb.NewSelect().Model(&snapshot).Where("count_id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	var lines []countLineRow
	if err := r.s.idb.NewSelect().Model(&lines).Where("count_id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	type binKey struct{ count, bin int64 }
	byBin := map[binKey]*count.Bin{}
	perCount := map[int64][]*count.Bin{}
	for _, b := range bins {
		cb := &count.Bin{BinLocationID: b.BinLocationID, Code: b.Code, Position: b.Position, Counted: b.Counted}
		byBin[binKey{b.CountID, b.BinLocationID}] = cb
		perCount[b.CountID] = append(perCount[b.CountID], cb)
	}
	for _, e := range snapshot {
		if b := byBin[binKey{e.CountID, e.BinLocationID}]; b != nil {
			b.Snapshot = append(b.Snapshot, count.Entry{ArticleDetailID: e.ArticleDetailID, Lot: e.LotNumber, Stock: e.Stock})
		}
	}
	for _, l := range lines {
		b := byBin[binKey{l.CountID, l.BinLocationID}]
		if b == nil {
			continue
		}
		line := count.Line{ArticleDetailID: l.ArticleDetailID, Lot: l.LotNumber, BestBeforeGiven: l.BestBeforeGiven, Quantity: l.Quantity}
		if l.BestBefore != nil {
			d, err := calendar.Parse(*l.BestBefore)
			if err != nil {
				return nil, errs.E(errs.Internal, "stored count line has a bad date %q", *l.BestBefore)
			}
			line.BestBefore = &d
		}
		b.Lines = append(b.Lines, line)
	}
	for i, row := range rows {
		articles, err := articlesOf(row.Articles)
		if err != nil {
			return nil, errs.E(errs.Internal, "stored count %d has bad products %q", row.ID, *row.Articles)
		}
		var cbs []count.Bin
		for _, b := range perCount[row.ID] {
			cbs = append(cbs, *b)
		}
		c, err := count.UnmarshalCountFromDatabase(row.ID, row.WarehouseID, count.Status(row.Status), row.Blind, row.LockBins,
			articles, row.CreatedAt.UTC(), row.User, cbs)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func (r counts) Save(ctx context.Context, c *count.Count) error {
	if c.StatusChanged() {
		if _, err := r.s.idb.NewUpdate().Table("counts").Set("status = ?", string(c.Status())).Where("id = ?", c.ID()).Exec(ctx); err != nil {
			return err
		}
		if c.Status() != count.Open {
			if _, err := r.s.idb.NewDelete().Table("count_open_bins").Where("count_id = ?", c.ID()).Exec(ctx); err != nil {
				return err
			}
		}
	}
	for _, b := range c.ChangedBins() {
		if _, err := r.s.idb.NewDelete().Table("count_lines").Where("count_id = ? AND bin_location_id = ?", c.ID(), b.BinLocationID).Exec(ctx); err != nil {
			return err
		}
		rows := make([]countLineRow, len(b.Lines))
		for i, l := range b.Lines {
			rows[i] = countLineRow{CountID: c.ID(), BinLocationID: b.BinLocationID, ArticleDetailID: l.ArticleDetailID,
				LotNumber: l.Lot, BestBeforeGiven: l.BestBeforeGiven, Quantity: l.Quantity}
			if l.BestBefore != nil {
				d := calendar.Format(*l.BestBefore)
				rows[i].BestBefore = &d
			}
		}
		if err := insertChunks(ctx, r.s, rows); err != nil {
			return err
		}
		if _, err := r.s.idb.NewUpdate().Table("count_bins").Set("counted = ?", true).
			Where("count_id = ? AND bin_location_id = ?", c.ID(), b.BinLocationID).Exec(ctx); err != nil {
			return err
		}
	}
	c.Saved()
	return nil
}

func (r counts) MovedSince(ctx context.Context, c *count.Count) (map[ports.CountKey]int, error) {
	type movedRow struct {
		BinLocationID   int64  `bun:"bin_location_id"`
		ArticleDetailID int64  `bun:"article_detail_id"`
		Lot             string `bun:"lot"`
		Quantity        int    `bun:"quantity"`
	}
	var rows []movedRow
	err := r.s.idb.NewSelect().TableExpr("count_bins AS cb").
		Join("JOIN stock_ledger_entries AS l ON l.bin_location_id = cb.bin_location_id AND l.id > cb.position").
		ColumnExpr("l.bin_location_id, l.article_detail_id, COALESCE(l.lot_number, '') AS lot, SUM(l.quantity) AS quantity").
		Where("cb.count_id = ? AND (l.count_id IS NULL OR l.count_id <> ?)", c.ID(), c.ID()).
		GroupExpr("l.bin_location_id, l.article_detail_id, COALESCE(l.lot_number, '')").Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	out := make(map[ports.CountKey]int, len(rows))
	for _, row := range rows {
		out[ports.CountKey{BinLocationID: row.BinLocationID, ArticleDetailID: row.ArticleDetailID, Lot: row.Lot}] = row.Quantity
	}
	return out, nil
}

func (r counts) Holders(ctx context.Context, bins []int64) ([]*domorder.Order, error) {
	if len(bins) == 0 {
		return nil, nil
	}
	var rows []orderRow
	sub := r.s.idb.NewSelect().TableExpr("reservations AS r").Join("JOIN order_details AS d ON d.id = r.order_detail_id").
		ColumnExpr("d.order_id").Where("r.bin_location_id IN (?)", bun.List(bins))
	sel := r.s.idb.NewSelect().Model(&rows).Where("o.id IN (?)", sub).OrderExpr("o.id")
	if err := r.s.forUpdate(sel).Scan(ctx); err != nil {
		return nil, err
	}
	return orders{r.s}.withDetails(ctx, rows)
}

func (r counts) OpenOn(ctx context.Context, binID int64) (int64, error) {
	var ids []int64
	err := r.s.idb.NewSelect().TableExpr("count_open_bins").Column("count_id").Where("bin_location_id = ?", binID).Scan(ctx, &ids)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return ids[0], nil
}
