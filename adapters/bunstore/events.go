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

	"github.com/shopstock/inventory/domain/event"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/shopstock/inventory/domain/catalog"
	domainstock "github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type snapshotRow struct {
	bun.BaseModel `bun:"table:stock_snapshots,alias:ss"`

	ArticleDetailID int64  `bun:"article_detail_id,pk"`
	Figures         string `bun:"figures"`
	Below           bool   `bun:"below"`
	Outstanding     int    `bun:"outstanding"`
}

// eventRow holds N events from feed position ID on (PostgreSQL records a
// transaction's events as one row, SQLite one per row): their types joined
// by commas, their data by the record separator.
type eventRow struct {
	bun.BaseModel `bun:"table:events,alias:e"`

	ID        int64     `bun:"id,pk"`
	N         int       `bun:"n"`
	Type      string    `bun:"type"`
	CreatedAt time.Time `bun:"created_at"`
	Data      string    `bun:"data"`
}

// events splits the row into its events.
func (row eventRow) events() ([]ports.Event, error) {
	if row.N <= 1 {
		return []ports.Event{{ID: row.ID, Type: row.Type, CreatedAt: row.CreatedAt.UTC(), Data: []byte(row.Data)}}, nil
	}
	types, data := strings.Split(row.Type, ","), strings.Split(row.Data, string(rune(recordSeparator)))
	if len(types) != row.N || len(data) != row.N {
		return nil, fmt.Errorf("events from %d: %d types and %d data for %d events", row.ID, len(types), len(data), row.N)
	}
	out := make([]ports.Event, row.N)
	for i := range out {
		out[i] = ports.Event{ID: row.ID + int64(i), Type: types[i], CreatedAt: row.CreatedAt.UTC(), Data: []byte(data[i])}
	}
	return out, nil
}

// eventRowsFrom is the condition on the rows that hold the events after
// position after: from the row holding position after+1 on (the last row
// that starts at or before it, found in the primary key).
const eventRowsFrom = "id >= COALESCE((SELECT MAX(id) FROM events WHERE id <= ?), 0)"

type events struct{ s *store }

func (s *store) Events() ports.EventRepository { return events{s} }

type lockedSnapshotRow struct {
	ArticleDetailID int64  `bun:"article_detail_id"`
	Figures         string `bun:"figures"`
	Below           bool   `bun:"below"`
	Outstanding     int    `bun:"outstanding"`
	Number          string `bun:"number"`
	Name            string `bun:"name"`
	ReorderPoint    int    `bun:"reorder_point"`
	EAN             string `bun:"ean"`
}

// lockedSnapshotsSQL reads the snapshots with their products, in id order;
// PostgreSQL locks them with it (lockSnapshotsPostgres).
const lockedSnapshotsSQL = `SELECT ss.article_detail_id, ss.figures, ss.below, ss.outstanding, a.number, a.name, a.reorder_point, a.ean
FROM stock_snapshots AS ss JOIN article_details AS a ON a.id = ss.article_detail_id
WHERE ss.article_detail_id ` + inIDsMarker + ` ORDER BY ss.article_detail_id`

var (
	lockSnapshotsPostgres = strings.ReplaceAll(lockedSnapshotsSQL, inIDsMarker, "= ANY(?::bigint[])") + " FOR UPDATE OF ss"
	stockOfPostgres       = strings.ReplaceAll(stockOfSQL, inIDsMarker, "= ANY(?::bigint[])")
	warehousesPostgres    = "SELECT id, code, stock_available_for_sale FROM warehouses WHERE id = ANY(?::bigint[])"
)

// lockedSnapshots reads the snapshots, locked, and then what the figures
// are made of. On PostgreSQL the two are statements of one round trip,
// sent with whatever execSoon holds before them (the batch's writes): the
// lock, FOR UPDATE of the snapshots (the products are locked by their
// writers already), is the first, so the figures' statement starts after
// it was granted and reads what the previous holder committed. SQLite's
// immediate transaction holds the whole database already.
func (r events) lockedSnapshots(ctx context.Context, ids, warehouseIDs []int64) ([]lockedSnapshotRow, stockOf, error) {
	stockOf := newStockOf(len(ids))
	if r.s.db.postgres && r.s.conn != nil {
		results, err := r.s.queryAfterPending(ctx, []string{lockSnapshotsPostgres, stockOfPostgres, warehousesPostgres},
			pgdialect.Array(ids), pgdialect.Array(ids), pgdialect.Array(ids), pgdialect.Array(warehouseIDs))
		if err != nil {
			return nil, stockOf, err
		}
		for _, row := range results[2].Rows {
			id, err := strconv.ParseInt(string(row[0]), 10, 64)
			if err != nil {
				return nil, stockOf, fmt.Errorf("warehouses: %w", err)
			}
			stockOf.warehouses[id] = domainstock.WarehouseStock{WarehouseID: id, WarehouseCode: string(row[1]), StockAvailableForSale: string(row[2]) == "t"}
		}
		out := make([]lockedSnapshotRow, 0, len(ids))
		for _, row := range results[0].Rows {
			if len(row) != 8 {
				return nil, stockOf, fmt.Errorf("snapshots: a row of %d columns", len(row))
			}
			id, err1 := strconv.ParseInt(string(row[0]), 10, 64)
			outstanding, err2 := strconv.Atoi(string(row[3]))
			reorderPoint, err3 := strconv.Atoi(string(row[6]))
			if err := errors.Join(err1, err2, err3); err != nil {
				return nil, stockOf, fmt.Errorf("snapshots: %w", err)
			}
			out = append(out, lockedSnapshotRow{
				ArticleDetailID: id, Figures: string(row[1]), Below: string(row[2]) == "t", Outstanding: outstanding,
				Number: string(row[4]), Name: string(row[5]), ReorderPoint: reorderPoint, EAN: string(row[7]),
			})
		}
		for _, row := range results[1].Rows {
			if err := stockOf.addText(row); err != nil {
				return nil, stockOf, err
			}
		}
		return out, stockOf, nil
	}
	// Scanned column by column: a batch reads a hundred of these.
	rows, done, err := r.s.queryIDs(ctx, lockedSnapshotsSQL, ids)
	if err != nil {
		return nil, stockOf, err
	}
	defer done()
	defer rows.Close()
	out := make([]lockedSnapshotRow, 0, len(ids))
	for rows.Next() {
		var row lockedSnapshotRow
		var reorderPoint, outstanding int64
		if err := rows.Scan(&row.ArticleDetailID, &row.Figures, &row.Below, &outstanding, &row.Number, &row.Name, &reorderPoint, &row.EAN); err != nil {
			return nil, stockOf, err
		}
		row.ReorderPoint, row.Outstanding = int(reorderPoint), int(outstanding)
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, stockOf, err
	}
	if stockOf.stocks, stockOf.outstanding, err = (figures{r.s}).StockOf(ctx, ids); err != nil || len(warehouseIDs) == 0 {
		return out, stockOf, err
	}
	var whs []struct {
		ID      int64  `bun:"id"`
		Code    string `bun:"code"`
		ForSale bool   `bun:"stock_available_for_sale"`
	}
	if err := r.s.idb.NewSelect().TableExpr("warehouses").Column("id", "code", "stock_available_for_sale").
		Where("id IN (?)", bun.List(warehouseIDs)).Scan(ctx, &whs); err != nil {
		return nil, stockOf, err
	}
	for _, w := range whs {
		stockOf.warehouses[w.ID] = domainstock.WarehouseStock{WarehouseID: w.ID, WarehouseCode: w.Code, StockAvailableForSale: w.ForSale}
	}
	return out, stockOf, nil
}

// LockSnapshots locks the existing snapshots and creates the missing ones
// (a product new to the feed), which the insert then holds locked.
func (r events) LockSnapshots(ctx context.Context, ids, warehouseIDs []int64) (ports.LockedSnapshots, error) {
	rows, stock, err := r.lockedSnapshots(ctx, ids, warehouseIDs)
	if err != nil {
		return ports.LockedSnapshots{}, err
	}
	if len(rows) < len(ids) {
		// A concurrent transaction creating the same snapshot makes this
		// insert wait for it; reading again afterwards sees what it
		// committed, and reads the figures after the lock again.
		if err := r.s.execSoon(ctx, `INSERT INTO stock_snapshots (article_detail_id)
SELECT id FROM article_details WHERE id IN (?) ORDER BY id
ON CONFLICT (article_detail_id) DO NOTHING`, bun.List(ids)); err != nil {
			return ports.LockedSnapshots{}, err
		}
		if rows, stock, err = r.lockedSnapshots(ctx, ids, warehouseIDs); err != nil {
			return ports.LockedSnapshots{}, err
		}
	}
	out := ports.LockedSnapshots{
		Snapshots: make(map[int64]ports.StockSnapshot, len(rows)), Articles: make([]*catalog.ArticleDetail, len(rows)),
		Stock: stock.stocks, Outstanding: stock.outstanding, Warehouses: stock.warehouses,
	}
	for i, row := range rows {
		out.Snapshots[row.ArticleDetailID] = ports.StockSnapshot{ArticleDetailID: row.ArticleDetailID, Figures: row.Figures, Below: row.Below, Outstanding: row.Outstanding}
		out.Articles[i] = catalog.UnmarshalArticleDetailFromDatabase(row.ArticleDetailID, row.Number, row.Name, row.ReorderPoint, row.EAN)
	}
	return out, nil
}

// saveSnapshots writes snapshots that LockSnapshots returned (so their
// rows exist).
func (r events) saveSnapshots(ctx context.Context, snapshots []ports.StockSnapshot) error {
	if !r.s.db.postgres {
		c := newSQLiteColumns(len(snapshots))
		sqliteColumn(c, snapshots, "id", func(s *ports.StockSnapshot) any { return s.ArticleDetailID })
		sqliteColumn(c, snapshots, "figures", func(s *ports.StockSnapshot) any { return s.Figures })
		sqliteColumn(c, snapshots, "below", func(s *ports.StockSnapshot) any { return s.Below })
		sqliteColumn(c, snapshots, "outstanding", func(s *ports.StockSnapshot) any { return s.Outstanding })
		return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
			return r.s.execPrepared(ctx, `WITH v(id, figures, below, outstanding) AS (VALUES `+chunk.tuples+`)
UPDATE stock_snapshots SET figures = v.figures, below = v.below, outstanding = v.outstanding FROM v WHERE stock_snapshots.article_detail_id = v.id`, chunk.args...)
		})
	}
	rows := make([]snapshotRow, len(snapshots))
	for i, s := range snapshots {
		rows[i] = snapshotRow{ArticleDetailID: s.ArticleDetailID, Figures: s.Figures, Below: s.Below, Outstanding: s.Outstanding}
	}
	_, err := r.s.idb.NewInsert().Model(&rows).On("CONFLICT (article_detail_id) DO UPDATE").
		Set("figures = EXCLUDED.figures").Set("below = EXCLUDED.below").Set("outstanding = EXCLUDED.outstanding").Exec(ctx)
	return err
}

// saveTotals keeps the changed totals as the domain computed them and
// removes those that hold no mapping any more (stock.WarehouseTotal.Held).
// On PostgreSQL the statements wait in execSoon for the round trip that
// records the events, their values as arrays; SQLite binds them to a kept
// statement (see the storage README for what parsing once saves).
func (r events) saveTotals(ctx context.Context, totals []domainstock.WarehouseTotal) error {
	var kept, gone []domainstock.WarehouseTotal
	for _, t := range totals {
		if t.Held() {
			kept = append(kept, t)
		} else {
			gone = append(gone, t)
		}
	}
	if len(kept) > 0 {
		if err := r.keepTotals(ctx, kept); err != nil {
			return err
		}
	}
	if len(gone) == 0 {
		return nil
	}
	articles, warehouses := make([]int64, len(gone)), make([]int64, len(gone))
	for i, t := range gone {
		articles[i], warehouses[i] = t.ArticleDetailID, t.WarehouseID
	}
	if r.s.db.postgres {
		return r.s.execSoon(ctx, `DELETE FROM stock_totals AS t USING unnest(?::bigint[], ?::bigint[]) AS g(a, w)
WHERE t.article_detail_id = g.a AND t.warehouse_id = g.w`, pgdialect.Array(articles), pgdialect.Array(warehouses))
	}
	for i := range gone {
		if err := r.s.execPrepared(ctx, "DELETE FROM stock_totals WHERE article_detail_id = ? AND warehouse_id = ?", articles[i], warehouses[i]); err != nil {
			return err
		}
	}
	return nil
}

const keepTotalsSet = ` ON CONFLICT (article_detail_id, warehouse_id) DO UPDATE
SET stock = excluded.stock, reserved_stock = excluded.reserved_stock, mappings = excluded.mappings`

func (r events) keepTotals(ctx context.Context, kept []domainstock.WarehouseTotal) error {
	if r.s.db.postgres {
		n := len(kept)
		articles, warehouses, stocks, reserved, mappings := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		for i, t := range kept {
			articles[i], warehouses[i], stocks[i], reserved[i], mappings[i] = t.ArticleDetailID, t.WarehouseID, int64(t.Stock), int64(t.ReservedStock), int64(t.Mappings)
		}
		return r.s.execSoon(ctx, `INSERT INTO stock_totals (article_detail_id, warehouse_id, stock, reserved_stock, mappings)
SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::int[])`+keepTotalsSet,
			pgdialect.Array(articles), pgdialect.Array(warehouses), pgdialect.Array(stocks), pgdialect.Array(reserved), pgdialect.Array(mappings))
	}
	c := newSQLiteColumns(len(kept))
	sqliteColumn(c, kept, "article_detail_id", func(t *domainstock.WarehouseTotal) any { return t.ArticleDetailID })
	sqliteColumn(c, kept, "warehouse_id", func(t *domainstock.WarehouseTotal) any { return t.WarehouseID })
	sqliteColumn(c, kept, "stock", func(t *domainstock.WarehouseTotal) any { return t.Stock })
	sqliteColumn(c, kept, "reserved_stock", func(t *domainstock.WarehouseTotal) any { return t.ReservedStock })
	sqliteColumn(c, kept, "mappings", func(t *domainstock.WarehouseTotal) any { return t.Mappings })
	return c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return r.s.execPrepared(ctx, chunk.insert("stock_totals")+keepTotalsSet, chunk.args...)
	})
}

func (r events) DeleteSnapshots(ctx context.Context, ids []int64) error {
	for _, table := range []string{"stock_snapshots", "stock_totals"} {
		if _, err := r.s.idb.NewDelete().TableExpr(table).Where("article_detail_id IN (?)", bun.List(ids)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Why positions from the counter give the feed its guarantee: the counter
// is one row, and the UPDATE that takes positions locks it until the
// transaction ends. Every transaction that records events does this as its
// last statements, so while one holds the row, no other can take positions,
// and the next one gets the row only after this one has committed (or
// rolled back: a gap, which readers do not mind). So positions are handed
// out in commit order, and a reader that has seen position N can never later
// meet a newly committed event below N. The cost is that recording
// transactions commit one at a time, for the short span from that statement
// to their commit.
//
// lockFeed takes the same lock without taking positions: webhook changes
// use it to fall cleanly before or after every event transaction.
func (s *store) lockFeed(ctx context.Context) error {
	_, err := s.idb.ExecContext(ctx, "UPDATE event_feed SET value = value WHERE name = 'last'")
	return err
}

func (s *store) takePositions(ctx context.Context, n int) (int64, error) {
	var last int64
	err := s.idb.NewRaw("UPDATE event_feed SET value = value + ? WHERE name = 'last' RETURNING value", n).Scan(ctx, &last)
	return last - int64(n) + 1, err
}

// Record writes the snapshots and the events, and queues the deliveries.
func (r events) Record(ctx context.Context, snapshots []ports.StockSnapshot, totals []domainstock.WarehouseTotal, evs []ports.NewEvent, at time.Time) error {
	if err := r.saveTotals(ctx, totals); err != nil {
		return err
	}
	switch {
	case r.s.db.postgres:
		return r.recordPostgres(ctx, snapshots, evs, at)
	case len(snapshots) > 0:
		if err := r.saveSnapshots(ctx, snapshots); err != nil {
			return err
		}
	}
	if len(evs) == 0 {
		return nil
	}
	first, err := r.s.takePositions(ctx, len(evs))
	if err != nil {
		return err
	}
	rows := make([]eventRow, len(evs))
	for i, e := range evs {
		rows[i] = eventRow{ID: first + int64(i), N: 1, Type: e.Type, CreatedAt: at.UTC(), Data: string(e.Data)}
	}
	// SQLite: the values bound as parameters of one prepared statement,
	// not formatted into its text.
	c := newSQLiteColumns(len(rows))
	sqliteColumn(c, rows, "id", func(e *eventRow) any { return e.ID })
	sqliteColumn(c, rows, "type", func(e *eventRow) any { return e.Type })
	sqliteColumn(c, rows, "created_at", func(e *eventRow) any { return sqliteTime(&e.CreatedAt) })
	sqliteColumn(c, rows, "data", func(e *eventRow) any { return e.Data })
	if err := c.chunks(sqliteRowsChunk, func(chunk sqliteChunk) error {
		return r.s.execPrepared(ctx, chunk.insert("events"), chunk.args...)
	}); err != nil {
		return err
	}
	return r.fanOut(ctx, rows)
}

// recordSeparator separates the events' data in a row of several.
const recordSeparator = 0x1e

// recordPostgres adds no round trip: its statements wait in execSoon and
// go with the COMMIT (DB.attemptPostgres), so that the span holding the
// feed lock is one round trip. They run in this order: the snapshots'
// update, outside the span that holds the feed lock; the feed counter's
// update, whose row lock orders the recording transactions by commit (see
// takePositions), with the events as one row from the first of its
// positions; then the deliveries, in a statement that starts after the feed
// lock was granted and so sees every webhook change committed before. The
// events travel, and are stored, as two texts: the types joined by commas,
// the data (JSON each) by the ASCII record separator, which JSON text never
// holds unescaped.
func (r events) recordPostgres(ctx context.Context, snapshots []ports.StockSnapshot, evs []ports.NewEvent, at time.Time) error {
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
		if err := r.s.execSoon(ctx, `UPDATE stock_snapshots AS s SET figures = v.figures, below = v.below, outstanding = v.outstanding
FROM unnest(?::bigint[], ?::text[], ?::boolean[], ?::bigint[]) AS v(id, figures, below, outstanding)
WHERE s.article_detail_id = v.id`, pgdialect.Array(ids), pgdialect.Array(figures), pgdialect.Array(below), pgdialect.Array(outstanding)); err != nil {
			return err
		}
	}
	if len(evs) == 0 {
		return nil
	}
	n := len(evs)
	return r.s.execSoon(ctx, `WITH taken AS (UPDATE event_feed SET value = value + ? WHERE name = 'last' RETURNING value)
INSERT INTO events (id, n, type, created_at, data) SELECT value - ? + 1, ?, ?, ?::timestamptz, ? FROM taken;
INSERT INTO webhook_deliveries (webhook_id, event_id, type, status, next_attempt_at, created_at)
SELECT s.webhook_id, f.value - ? + e.ord, e.type, 'pending', clock_timestamp(), clock_timestamp()
FROM event_feed AS f, string_to_table(?, ',') WITH ORDINALITY AS e(type, ord)
JOIN webhook_subscriptions AS s ON s.event_type = e.type
WHERE f.name = 'last'
ORDER BY s.webhook_id, e.ord`, n, n, n, longText(types), at.UTC(), longText(data), n, longText(types))
}

// fanOut queues the deliveries of the new events to the webhooks that are
// to be sent their types (webhook_subscriptions). It reads them while
// holding the feed lock, which webhook changes take too: a webhook gets
// exactly the events that commit after its creation while it is enabled.
func (r events) fanOut(ctx context.Context, rows []eventRow) error {
	var subs []subscriptionRow
	if err := r.s.idb.NewSelect().Model(&subs).Order("webhook_id").Scan(ctx); err != nil || len(subs) == 0 {
		return err
	}
	now, err := r.s.dbNow(ctx)
	if err != nil {
		return err
	}
	var deliveries []deliveryRow
	for _, sub := range subs {
		for _, e := range rows {
			if e.Type == sub.EventType {
				deliveries = append(deliveries, deliveryRow{
					WebhookID: sub.WebhookID, EventID: e.ID, Type: e.Type, Status: ports.DeliveryPending,
					NextAttemptAt: &now, CreatedAt: now,
				})
			}
		}
	}
	if len(deliveries) == 0 {
		return nil
	}
	_, err = r.s.idb.NewInsert().Model(&deliveries).ExcludeColumn("id").Exec(ctx)
	return err
}

// Feed reads rows until it has limit events after the position (of the
// types asked for): every row holds one event at least, so limit rows
// suffice without a filter.
func (r events) Feed(ctx context.Context, after int64, limit int, types []string) ([]ports.Event, error) {
	var out []ports.Event
	from := after
	for len(out) < limit {
		var rows []eventRow
		if err := r.s.idb.NewSelect().Model(&rows).Where(eventRowsFrom, from+1).Where("id + n - 1 > ?", from).
			OrderExpr("id").Limit(int64(limit)).Scan(ctx); err != nil {
			return nil, err
		}
		for _, row := range rows {
			evs, err := row.events()
			if err != nil {
				return nil, err
			}
			for _, e := range evs {
				if e.ID > after && len(out) < limit && (len(types) == 0 || slices.Contains(types, e.Type)) {
					out = append(out, e)
				}
			}
			from = row.ID + int64(row.N) - 1
		}
		if len(rows) < limit {
			break
		}
	}
	return out, nil
}

func (r events) PurgedThrough(ctx context.Context) (int64, error) {
	var n int64
	err := r.s.idb.NewSelect().TableExpr("event_feed").Column("value").Where("name = 'purged'").Scan(ctx, &n)
	return n, err
}

// Purge removes every event up to the last one recorded before the cutoff
// (whole rows: the last position of a row recorded before it), with its
// deliveries, and remembers the position purged through.
func (r events) Purge(ctx context.Context, olderThan time.Duration) (int, error) {
	now, err := r.s.dbNow(ctx)
	if err != nil {
		return 0, err
	}
	var through sql.NullInt64
	err = r.s.idb.NewSelect().TableExpr("events").ColumnExpr("MAX(id + n - 1)").Where("created_at < ?", now.Add(-olderThan)).Scan(ctx, &through)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if !through.Valid {
		return 0, nil
	}
	var n int
	if err := r.s.idb.NewSelect().TableExpr("events").ColumnExpr("COALESCE(SUM(n), 0)").Where("id <= ?", through.Int64).Scan(ctx, &n); err != nil {
		return 0, err
	}
	if _, err := r.s.idb.NewDelete().TableExpr("events").Where("id <= ?", through.Int64).Exec(ctx); err != nil {
		return 0, err
	}
	if _, err := r.s.idb.NewDelete().TableExpr("webhook_deliveries").Where("event_id <= ?", through.Int64).Exec(ctx); err != nil {
		return 0, err
	}
	if _, err := r.s.idb.ExecContext(ctx, "UPDATE event_feed SET value = ? WHERE name = 'purged' AND value < ?", through.Int64, through.Int64); err != nil {
		return 0, err
	}
	return n, nil
}
