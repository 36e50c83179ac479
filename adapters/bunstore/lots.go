package bunstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/calendar"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// Lots are stored in two tables: `lots`, one row per lot of
// an article detail (its number, best-before date and whether its expiry
// is counted), kept after its last piece left; and `lot_stock`, what each
// lot holds on each mapping of a lot-tracked product, whose sums are the
// mapping's stock and reserved_stock. Both are written with the mappings,
// under the products' lock (stockMappings.Save).

type lotRow struct {
	bun.BaseModel `bun:"table:lots,alias:lt"`

	ID              int64     `bun:"id,pk,autoincrement"`
	ArticleDetailID int64     `bun:"article_detail_id"`
	Number          string    `bun:"number"`
	BestBefore      lotDate   `bun:"best_before"`
	ExpiryCounted   bool      `bun:"expiry_counted"`
	CreatedAt       time.Time `bun:"created_at"`
}

func (r lotRow) lot() stock.Lot {
	return stock.Lot{ArticleDetailID: r.ArticleDetailID, Number: r.Number, BestBefore: r.BestBefore.t, ExpiryCounted: r.ExpiryCounted}
}

// lotDate reads a best-before date as either database answers it: a time
// (PostgreSQL's DATE), the text YYYY-MM-DD (SQLite), or NULL.
type lotDate struct{ t *time.Time }

func (d *lotDate) Scan(src any) error {
	switch x := src.(type) {
	case nil:
		d.t = nil
	case time.Time:
		t := time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC)
		d.t = &t
	case string:
		return d.parse(x)
	case []byte:
		return d.parse(string(x))
	default:
		return fmt.Errorf("best-before date: a %T", src)
	}
	return nil
}

func (d *lotDate) parse(s string) error {
	if len(s) > len(calendar.Layout) {
		// A time as text: its date is what counts.
		s = s[:len(calendar.Layout)]
	}
	t, err := calendar.Parse(s)
	if err != nil {
		return fmt.Errorf("best-before date: %w", err)
	}
	d.t = &t
	return nil
}

// dateArg is a best-before date as a statement's argument: the text
// YYYY-MM-DD, which both databases store as the date it names, or NULL.
func dateArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return calendar.Format(*t)
}

type lotStockRow struct {
	ArticleDetailID int64  `bun:"article_detail_id"`
	BinLocationID   int64  `bun:"bin_location_id"`
	WarehouseID     int64  `bun:"warehouse_id"`
	LotNumber       string `bun:"lot_number"`
	Stock           int    `bun:"stock"`
	ReservedStock   int    `bun:"reserved_stock"`
}

// lotsLoaded is what a working set needs to know of its lot-tracked
// products: which they are, their lots, and what each lot holds per
// mapping (by article detail and bin location).
type lotsLoaded struct {
	tracked []int64
	lots    []stock.Lot
	stock   map[mappingKeyOf][]stock.LotStock
}

type mappingKeyOf struct{ article, bin int64 }

// addStock adds a row of lot_stock; a row read twice (a mapping wanted
// both on its bin and in its warehouse) counts once.
func (l *lotsLoaded) addStock(r lotStockRow) {
	if l.stock == nil {
		l.stock = map[mappingKeyOf][]stock.LotStock{}
	}
	k := mappingKeyOf{r.ArticleDetailID, r.BinLocationID}
	for _, have := range l.stock[k] {
		if have.Number == r.LotNumber {
			return
		}
	}
	l.stock[k] = append(l.stock[k], stock.LotStock{Number: r.LotNumber, Stock: r.Stock, ReservedStock: r.ReservedStock})
}

// into gives the working set its lots and every loaded mapping of a
// lot-tracked product what its lots hold there; the caller calls Loaded
// after it. A working set without lot-tracked products is left alone.
func (l *lotsLoaded) into(s *store, ws *stock.WorkingSet, mappings []*stock.Mapping) error {
	if l == nil || len(l.tracked) == 0 {
		return nil
	}
	ws.KnowLots(l.tracked, l.lots)
	for _, m := range mappings {
		if !ws.LotTracked(m.ArticleDetailID()) {
			continue
		}
		k := mappingKeyOf{m.ArticleDetailID(), m.BinLocationID()}
		lots := l.stock[k]
		// In the order they were first stocked there is not stored: by
		// number, so that a mapping reads the same every time.
		slices.SortFunc(lots, func(a, b stock.LotStock) int { return strings.Compare(a.Number, b.Number) })
		if err := m.RestoreLots(lots); err != nil {
			return err
		}
		if s.loadedLots == nil {
			s.loadedLots = make(map[mappingKeyOf][]stock.LotStock)
		}
		s.loadedLots[k] = slices.Clone(lots)
	}
	return nil
}

// lockArticlesTrackedSQL is lockArticlesSQL that also tells which of the
// products are lot-tracked (lot_tracked changes only under the same lock).
const lockArticlesTrackedSQL = "SELECT id, lot_tracked FROM article_details WHERE id " + inIDsMarker + " ORDER BY id"

// lockTracked locks the products in id order, as ArticleDetails().Lock
// does, and tells which exist and which of those are lot-tracked.
func lockTracked(ctx context.Context, s *store, ids []int64) (existing, tracked []int64, err error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	query := lockArticlesTrackedSQL
	if lock := s.rowLock(productLock); lock != "" {
		query += " FOR " + lock
	}
	rows, done, err := s.queryIDs(ctx, query, ids)
	if err != nil {
		return nil, nil, fmt.Errorf("lock article details: %w", err)
	}
	defer done()
	defer rows.Close()
	existing = make([]int64, 0, len(ids))
	for rows.Next() {
		var id int64
		var lotTracked bool
		if err := rows.Scan(&id, &lotTracked); err != nil {
			return nil, nil, fmt.Errorf("lock article details: %w", err)
		}
		existing = append(existing, id)
		if lotTracked {
			tracked = append(tracked, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("lock article details: %w", err)
	}
	return existing, tracked, nil
}

// loadLots reads the lots of the tracked products, one statement (only
// for a scope that has lot-tracked products). What they hold is read with
// the mappings (lotStockOf).
func loadLots(ctx context.Context, s *store, tracked []int64) (*lotsLoaded, error) {
	out := &lotsLoaded{tracked: tracked}
	if len(tracked) == 0 {
		return out, nil
	}
	args := make([]any, len(tracked))
	for i, id := range tracked {
		args[i] = id
	}
	rows, done, err := s.db.dialect.queryKept(ctx, s, `SELECT article_detail_id, number, best_before, expiry_counted FROM lots
WHERE article_detail_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")+`) ORDER BY article_detail_id, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("load lots: %w", err)
	}
	defer done()
	defer rows.Close()
	for rows.Next() {
		var l stock.Lot
		var date lotDate
		if err := rows.Scan(&l.ArticleDetailID, &l.Number, &date, &l.ExpiryCounted); err != nil {
			return nil, fmt.Errorf("load lots: %w", err)
		}
		l.BestBefore = date.t
		out.lots = append(out.lots, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load lots: %w", err)
	}
	return out, nil
}

// lotStockOf reads what the lots hold on the loaded mappings of
// lot-tracked products, through the key's index, in statements of
// lotPairsChunk mappings.
func (l *lotsLoaded) lotStockOf(ctx context.Context, s *store, rows []loadedMappingRow) error {
	if l == nil || len(l.tracked) == 0 {
		return nil
	}
	tracked := make(map[int64]bool, len(l.tracked))
	for _, id := range l.tracked {
		tracked[id] = true
	}
	var pairs []any
	for _, r := range rows {
		if tracked[r.ArticleDetailID] {
			pairs = append(pairs, r.ArticleDetailID, r.BinLocationID)
		}
	}
	for start := 0; start < len(pairs); start += 2 * lotPairsChunk {
		chunk := pairs[start:min(start+2*lotPairsChunk, len(pairs))]
		found, done, err := s.db.dialect.queryKept(ctx, s, `WITH p(a, b) AS (VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?), ", len(chunk)/2), ", ")+`)
SELECT ls.article_detail_id, ls.bin_location_id, ls.lot_number, ls.stock, ls.reserved_stock
FROM p JOIN lot_stock AS ls ON ls.article_detail_id = p.a AND ls.bin_location_id = p.b`, chunk...)
		if err != nil {
			return fmt.Errorf("load lot stock: %w", err)
		}
		for err == nil && found.Next() {
			var r lotStockRow
			if err = found.Scan(&r.ArticleDetailID, &r.BinLocationID, &r.LotNumber, &r.Stock, &r.ReservedStock); err == nil {
				l.addStock(r)
			}
		}
		if err == nil {
			err = found.Err()
		}
		found.Close()
		done()
		if err != nil {
			return fmt.Errorf("load lot stock: %w", err)
		}
	}
	return nil
}

// lotPairsChunk mappings at most go into one read of lot stock: two
// parameters each, far below SQLite's limit.
const lotPairsChunk = 5000

// lotStockPerInsert rows go into one insert: six parameters each, far
// below SQLite's limit.
const lotStockPerInsert = 1000

// saveLots writes the working set's new lots and the lots whose expiry
// was counted, and what the lots hold on every written mapping of a
// lot-tracked product: what changed since this transaction read it (a
// lot's row updated in place, set-based as the mappings are; one that
// emptied deleted; a new one inserted), or for a mapping it did not read,
// all of it. On PostgreSQL the statements travel in the pgx batch of the
// stock's Save (oneTrip). Products that are not lot-tracked cost nothing
// here.
func (r stockMappings) saveLots(ctx context.Context, ws *stock.WorkingSet, upserted, removed []*stock.Mapping) error {
	if changes := ws.LotChanges(); len(changes) > 0 {
		for start := 0; start < len(changes); start += lotStockPerInsert {
			chunk := changes[start:min(start+lotStockPerInsert, len(changes))]
			args := make([]any, 0, 5*len(chunk))
			for _, l := range chunk {
				args = append(args, l.ArticleDetailID, l.Number, dateArg(l.BestBefore), l.ExpiryCounted, r.s.db.dialect.nowValue())
			}
			if err := r.s.exec(ctx, `INSERT INTO lots (article_detail_id, number, best_before, expiry_counted, created_at)
VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", len(chunk)), ", ")+`
ON CONFLICT (article_detail_id, number) DO UPDATE SET expiry_counted = excluded.expiry_counted`, args...); err != nil {
				return err
			}
		}
	}
	var unread []mappingKeyOf
	var gone []lotStockKey
	var put, changed []lotStockRow
	for _, group := range [][]*stock.Mapping{upserted, removed} {
		for _, m := range group {
			if !ws.LotTracked(m.ArticleDetailID()) {
				continue
			}
			k := mappingKeyOf{m.ArticleDetailID(), m.BinLocationID()}
			before, read := r.s.loadedLots[k]
			if !read && m.ID() != 0 {
				unread = append(unread, k)
			}
			var now []stock.LotStock
			if !m.Removable() {
				now = m.Lots()
			}
			for _, b := range before {
				if !slices.ContainsFunc(now, func(l stock.LotStock) bool { return l.Number == b.Number }) {
					gone = append(gone, lotStockKey{k, b.Number})
				}
			}
			for _, l := range now {
				row := lotStockRow{ArticleDetailID: k.article, BinLocationID: k.bin,
					WarehouseID: m.WarehouseID(), LotNumber: l.Number, Stock: l.Stock, ReservedStock: l.ReservedStock}
				switch i := slices.IndexFunc(before, func(b stock.LotStock) bool { return b.Number == l.Number }); {
				case i < 0:
					put = append(put, row)
				case before[i] != l:
					changed = append(changed, row)
				}
			}
			if r.s.loadedLots == nil {
				r.s.loadedLots = make(map[mappingKeyOf][]stock.LotStock)
			}
			r.s.loadedLots[k] = now
		}
	}
	if len(unread) > 0 {
		if err := r.s.db.dialect.deleteLotStock(ctx, r.s, unread); err != nil {
			return err
		}
	}
	if len(gone) > 0 {
		if err := r.s.db.dialect.deleteLots(ctx, r.s, gone); err != nil {
			return err
		}
	}
	if len(changed) > 0 {
		if err := r.s.db.dialect.updateLots(ctx, r.s, changed); err != nil {
			return err
		}
	}
	for start := 0; start < len(put); start += lotStockPerInsert {
		chunk := put[start:min(start+lotStockPerInsert, len(put))]
		args := make([]any, 0, 6*len(chunk))
		for _, l := range chunk {
			args = append(args, l.ArticleDetailID, l.BinLocationID, l.WarehouseID, l.LotNumber, l.Stock, l.ReservedStock)
		}
		if err := r.s.exec(ctx, `INSERT INTO lot_stock (article_detail_id, bin_location_id, warehouse_id, lot_number, stock, reserved_stock)
VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?), ", len(chunk)), ", "), args...); err != nil {
			return err
		}
	}
	return nil
}

// lotStockKey names one row of lot_stock.
type lotStockKey struct {
	mapping mappingKeyOf
	number  string
}

// mappingLots are what the lots hold on the mappings of a bin location,
// per article detail, in FEFO order (stock.CompareFEFO).
func (r stockMappings) mappingLots(ctx context.Context, binLocationID int64) (map[int64][]ports.MappingLot, error) {
	var rows []struct {
		ArticleDetailID int64   `bun:"article_detail_id"`
		LotNumber       string  `bun:"lot_number"`
		BestBefore      lotDate `bun:"best_before"`
		Stock           int     `bun:"stock"`
		ReservedStock   int     `bun:"reserved_stock"`
	}
	if err := r.s.idb.NewSelect().TableExpr("lot_stock AS ls").
		Join("JOIN lots AS lt ON lt.article_detail_id = ls.article_detail_id AND lt.number = ls.lot_number").
		ColumnExpr("ls.article_detail_id, ls.lot_number, lt.best_before, ls.stock, ls.reserved_stock").
		Where("ls.bin_location_id = ?", binLocationID).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := map[int64][]ports.MappingLot{}
	for _, row := range rows {
		out[row.ArticleDetailID] = append(out[row.ArticleDetailID], ports.MappingLot{
			Number: row.LotNumber, BestBefore: row.BestBefore.t, Stock: row.Stock, ReservedStock: row.ReservedStock})
	}
	for article, lots := range out {
		slices.SortFunc(lots, func(a, b ports.MappingLot) int {
			return stock.CompareFEFO(stock.Lot{Number: a.Number, BestBefore: a.BestBefore}, stock.Lot{Number: b.Number, BestBefore: b.BestBefore})
		})
		out[article] = lots
	}
	return out, nil
}

// lotRepository reads lots (ports.LotRepository).
type lotRepository struct{ s *store }

func (s *store) Lots() ports.LotRepository { return lotRepository{s} }

// Sort keys of the lists that are no filters: a best-before date sorts
// with lots without one after every date (as PostgreSQL sorts NULL, which
// SQLite sorts first), a number in byte order.
const (
	lotBestBeforeOrder = "lot.bestBefore:order"
	lotNumberOrder     = "lot.number:order"
)

// lotColumns are the list's columns; lot.expired is whether the lot's
// expiry is counted, as the figures count it.
func (r lotRepository) lotColumns() columns {
	return columns{
		"lot.id": "lt.id", "lot.articleDetailId": "lt.article_detail_id", "lot.number": "lt.number",
		"lot.bestBefore":   "lt.best_before",
		"lot.expired":      "lt.expiry_counted",
		lotBestBeforeOrder: "COALESCE(lt.best_before, '9999-12-31')",
		lotNumberOrder:     "lt.number" + r.s.db.dialect.byteOrder(),
	}
}

func (r lotRepository) Get(ctx context.Context, id int64) (ports.LotView, error) {
	var rows []lotRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("lt.id = ?", id).Scan(ctx); err != nil {
		return ports.LotView{}, err
	}
	if len(rows) == 0 {
		return ports.LotView{}, errs.NotFoundf("lot %d not found", id)
	}
	views, err := r.views(ctx, rows)
	if err != nil {
		return ports.LotView{}, err
	}
	return views[0], nil
}

func (r lotRepository) List(ctx context.Context, q ports.ListQuery) (ports.Page[ports.LotView], error) {
	sorts := make([]ports.Sort, 0, max(2, len(q.Sorts)))
	for _, s := range q.Sorts {
		switch s.Property {
		case "lot.bestBefore":
			s.Property = lotBestBeforeOrder
		case "lot.number":
			s.Property = lotNumberOrder
		}
		sorts = append(sorts, s)
	}
	if len(sorts) == 0 {
		sorts = append(sorts, ports.Sort{Property: lotBestBeforeOrder}, ports.Sort{Property: lotNumberOrder})
	}
	q.Sorts = sorts
	var rows []lotRow
	total, err := page(ctx, r.s.idb, &rows, q, r.lotColumns(), ports.LotFields, "lt.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	if err != nil {
		return ports.Page[ports.LotView]{}, err
	}
	items, err := r.views(ctx, rows)
	return ports.Page[ports.LotView]{Total: total, Items: items}, err
}

func (r lotRepository) Numbered(ctx context.Context, number string) ([]ports.LotView, error) {
	var rows []lotRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("lt.number = ?", number).OrderExpr("lt.article_detail_id, lt.id").Scan(ctx); err != nil {
		return nil, err
	}
	return r.views(ctx, rows)
}

// views adds to the lots their stock, in one statement: where they lie,
// by warehouse id, then bin code in byte order.
func (r lotRepository) views(ctx context.Context, rows []lotRow) ([]ports.LotView, error) {
	out := make([]ports.LotView, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	pairs := make([][]any, len(rows))
	at := make(map[mappingLotKey]int, len(rows))
	for i, row := range rows {
		out[i] = ports.LotView{ID: row.ID, Lot: row.lot(), Locations: []ports.LotLocation{}}
		pairs[i] = []any{row.ArticleDetailID, row.Number}
		at[mappingLotKey{row.ArticleDetailID, row.Number}] = i
	}
	var locations []struct {
		ArticleDetailID int64  `bun:"article_detail_id"`
		LotNumber       string `bun:"lot_number"`
		WarehouseID     int64  `bun:"warehouse_id"`
		BinLocationID   int64  `bun:"bin_location_id"`
		Code            string `bun:"code"`
		Stock           int    `bun:"stock"`
		ReservedStock   int    `bun:"reserved_stock"`
	}
	if err := r.s.idb.NewSelect().TableExpr("lot_stock AS ls").Join("JOIN bin_locations AS b ON b.id = ls.bin_location_id").
		ColumnExpr("ls.article_detail_id, ls.lot_number, ls.warehouse_id, ls.bin_location_id, b.code, ls.stock, ls.reserved_stock").
		Where("(ls.article_detail_id, ls.lot_number) IN (?)", tuples(pairs)).
		OrderExpr("ls.warehouse_id, b.code"+r.s.db.dialect.byteOrder()).Scan(ctx, &locations); err != nil {
		return nil, err
	}
	for _, l := range locations {
		i, ok := at[mappingLotKey{l.ArticleDetailID, l.LotNumber}]
		if !ok {
			continue
		}
		v := &out[i]
		v.Stock += l.Stock
		v.ReservedStock += l.ReservedStock
		v.Locations = append(v.Locations, ports.LotLocation{WarehouseID: l.WarehouseID, BinLocationID: l.BinLocationID,
			BinLocationCode: l.Code, Stock: l.Stock, ReservedStock: l.ReservedStock})
	}
	return out, nil
}

type mappingLotKey struct {
	article int64
	number  string
}
