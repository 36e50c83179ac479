package bunstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

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
	LotTracked      bool   `bun:"lot_tracked"`
	Incoming        int    `bun:"incoming"`
	InTransit       int    `bun:"in_transit"`
}

// lockedSnapshotsSQL reads the snapshots with their products, in id order;
// PostgreSQL locks them with it (lockSnapshotsPostgres).
const lockedSnapshotsSQL = `SELECT ss.article_detail_id, ss.figures, ss.below, ss.outstanding, a.number, a.name, a.reorder_point, a.ean,
  a.lot_tracked, COALESCE(i.quantity, 0), COALESCE(tr.quantity, 0)
FROM stock_snapshots AS ss JOIN article_details AS a ON a.id = ss.article_detail_id
LEFT JOIN incoming_stock AS i ON i.article_detail_id = ss.article_detail_id
LEFT JOIN in_transit_stock AS tr ON tr.article_detail_id = ss.article_detail_id
WHERE ss.article_detail_id ` + inIDsMarker + ` ORDER BY ss.article_detail_id`

// lockedSnapshots reads the snapshots, locked, and then what the figures
// are made of (dialect.lockedSnapshots).
func (r events) lockedSnapshots(ctx context.Context, ids, warehouseIDs []int64) ([]lockedSnapshotRow, stockOf, error) {
	return r.s.db.dialect.lockedSnapshots(ctx, r.s, ids, warehouseIDs)
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
		if err := r.s.exec(ctx, `INSERT INTO stock_snapshots (article_detail_id)
SELECT id FROM article_details WHERE id IN (?) ORDER BY id
ON CONFLICT (article_detail_id) DO NOTHING`, bun.List(ids)); err != nil {
			return ports.LockedSnapshots{}, err
		}
		if rows, stock, err = r.lockedSnapshots(ctx, ids, warehouseIDs); err != nil {
			return ports.LockedSnapshots{}, err
		}
	}
	return lockedOf(rows, stock), nil
}

// lockedOf is what LockSnapshots returns, from the snapshots' rows and the
// figures read after their lock. Figures read for a product whose snapshot
// was not among the rows are left out: nothing locked them.
func lockedOf(rows []lockedSnapshotRow, stock stockOf) ports.LockedSnapshots {
	out := ports.LockedSnapshots{
		Snapshots: make(map[int64]ports.StockSnapshot, len(rows)), Articles: make([]*catalog.ArticleDetail, len(rows)),
		Stock: make(map[int64][]domainstock.WarehouseStock, len(rows)), Outstanding: make(map[int64]int, len(rows)),
		Warehouses: stock.warehouses, Incoming: map[int64]int{},
		InTransit: map[int64]int{},
	}
	for i, row := range rows {
		id := row.ArticleDetailID
		if row.Incoming != 0 {
			out.Incoming[id] = row.Incoming
		}
		if row.InTransit != 0 {
			out.InTransit[id] = row.InTransit
		}
		if ws, ok := stock.stocks[id]; ok {
			out.Stock[id] = ws
		}
		if n, ok := stock.outstanding[id]; ok {
			out.Outstanding[id] = n
		}
		out.Snapshots[id] = ports.StockSnapshot{ArticleDetailID: id, Figures: row.Figures, Below: row.Below, Outstanding: row.Outstanding}
		out.Articles[i] = catalog.UnmarshalArticleDetailFromDatabase(id, row.Number, row.Name, row.ReorderPoint, row.EAN, row.LotTracked)
	}
	return out
}

// saveTotals keeps the changed totals as the domain computed them and
// removes those that hold no mapping any more (stock.WarehouseTotal.Held).
// On PostgreSQL they travel in the round trip that records the events,
// their values as arrays; SQLite binds them to a kept statement (see the
// storage README for what parsing once saves).
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
		if err := r.s.db.dialect.keepTotals(ctx, r.s, kept); err != nil {
			return err
		}
	}
	if len(gone) == 0 {
		return nil
	}
	return r.s.db.dialect.dropTotals(ctx, r.s, gone)
}

// keepTotalsSet makes the insert of a kept total an upsert.
const keepTotalsSet = ` ON CONFLICT (article_detail_id, warehouse_id) DO UPDATE
SET stock = excluded.stock, reserved_stock = excluded.reserved_stock, expired_stock = excluded.expired_stock, mappings = excluded.mappings`

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
	rows, done, err := s.db.dialect.queryKept(ctx, s, "UPDATE event_feed SET value = value + ? WHERE name = 'last' RETURNING value", n)
	if err != nil {
		return 0, err
	}
	defer done()
	defer rows.Close()
	var last int64
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, err
		}
		return 0, errors.New("take feed positions: the counter row is missing")
	}
	if err := rows.Scan(&last); err != nil {
		return 0, err
	}
	return last - int64(n) + 1, rows.Close()
}

// Record writes the totals, the snapshots and the events, and queues the
// deliveries, as the transaction's last statements: on PostgreSQL one pgx
// batch that goes with the COMMIT (lastTrip).
func (r events) Record(ctx context.Context, snapshots []ports.StockSnapshot, totals []domainstock.WarehouseTotal, evs []ports.NewEvent, at time.Time) error {
	return r.s.lastTrip(ctx, func() error {
		if err := r.saveTotals(ctx, totals); err != nil {
			return err
		}
		return r.s.db.dialect.record(ctx, r.s, snapshots, evs, at)
	})
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

// Feed reads the events after the position, limit of them at most (of the
// types asked for). Positions are handed out one after another, a
// transaction's events in one row, so without a filter the events up to
// position after+limit lie in the rows that start at or before it: a page
// reads the rows its events are in and no more. The purge leaves no
// position before the oldest row: a page that starts there goes on from
// that row. With a filter it reads limit rows at a time (every row holds
// one event at least) until it has limit events.
func (r events) Feed(ctx context.Context, after int64, limit int, types []string) ([]ports.Event, error) {
	var out []ports.Event
	from := after
	for len(out) < limit {
		var rows []eventRow
		q := r.s.idb.NewSelect().Model(&rows).Where(eventRowsFrom, from+1).Where("id + n - 1 > ?", from).OrderExpr("id")
		through := from + int64(limit-len(out))
		if len(types) == 0 {
			q = q.Where("id <= ?", through)
		} else {
			q = q.Limit(int64(limit))
		}
		if err := q.Scan(ctx); err != nil {
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
		switch {
		case len(types) > 0 && len(rows) < limit, len(types) == 0 && len(rows) > 0 && from < through:
			return out, nil // the newest event is read
		case len(rows) == 0:
			var next []int64
			if err := r.s.idb.NewSelect().TableExpr("events").ColumnExpr("id").Where("id > ?", from).OrderExpr("id").Limit(1).Scan(ctx, &next); err != nil {
				return nil, err
			}
			if len(next) == 0 {
				return out, nil
			}
			from = next[0] - 1
		}
	}
	return out, nil
}

func (r events) PurgedThrough(ctx context.Context) (int64, error) {
	var n int64
	err := r.s.idb.NewSelect().TableExpr("event_feed").Column("value").Where("name = 'purged'").Scan(ctx, &n)
	return n, err
}

// Purge removes, from the oldest row on and among limit rows at most, every
// event up to the last one recorded before the cutoff (whole rows: the last
// position of a row recorded before it), with its deliveries, and
// remembers the position purged through. A chunk keeps the locks and the
// write-ahead log of one purge small; the rows are found in the primary
// key, from its start, however many there are.
func (r events) Purge(ctx context.Context, olderThan time.Duration, limit int) (int, error) {
	now, err := r.s.dbNow(ctx)
	if err != nil {
		return 0, err
	}
	var oldest []struct {
		ID        int64     `bun:"id"`
		N         int       `bun:"n"`
		CreatedAt time.Time `bun:"created_at"`
	}
	if err := r.s.idb.NewSelect().TableExpr("events").Column("id", "n", "created_at").OrderExpr("id").Limit(int64(limit)).Scan(ctx, &oldest); err != nil {
		return 0, err
	}
	cutoff := now.Add(-olderThan)
	var through int64
	n := 0
	for _, row := range oldest {
		if row.CreatedAt.Before(cutoff) {
			through = row.ID + int64(row.N) - 1
		}
	}
	if through == 0 {
		return 0, nil
	}
	for _, row := range oldest {
		if row.ID <= through {
			n += row.N
		}
	}
	if _, err := r.s.idb.NewDelete().TableExpr("events").Where("id <= ?", through).Exec(ctx); err != nil {
		return 0, err
	}
	if _, err := r.s.idb.NewDelete().TableExpr("webhook_deliveries").Where("event_id <= ?", through).Exec(ctx); err != nil {
		return 0, err
	}
	if _, err := r.s.idb.ExecContext(ctx, "UPDATE event_feed SET value = ? WHERE name = 'purged' AND value < ?", through, through); err != nil {
		return 0, err
	}
	return n, nil
}
