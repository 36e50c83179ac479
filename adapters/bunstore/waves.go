package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/wave"
	"github.com/shopstock/inventory/ports"
)

type waveRow struct {
	bun.BaseModel `bun:"table:picking_waves,alias:pw"`

	ID          int64     `bun:"id,pk,autoincrement"`
	WarehouseID int64     `bun:"warehouse_id"`
	CreatedAt   time.Time `bun:"created_at"`
	User        string    `bun:"user_name"`
	Skipped     string    `bun:"skipped"`
}

type waveTaskRow struct {
	bun.BaseModel `bun:"table:picking_wave_tasks,alias:pwt"`

	WaveID          int64  `bun:"wave_id,pk"`
	ID              int64  `bun:"id,pk"`
	BinLocationID   int64  `bun:"bin_location_id"`
	BinLocationCode string `bun:"bin_location_code"`
	ArticleDetailID int64  `bun:"article_detail_id"`
	LotNumber       string `bun:"lot_number"`
	Status          string `bun:"status"`
}

type waveTaskOrderRow struct {
	bun.BaseModel `bun:"table:picking_wave_task_orders,alias:pwo"`

	WaveID        int64 `bun:"wave_id,pk"`
	TaskID        int64 `bun:"task_id,pk"`
	OrderDetailID int64 `bun:"order_detail_id,pk"`
	OrderID       int64 `bun:"order_id"`
	Quantity      int   `bun:"quantity"`
	Picked        int   `bun:"picked"`
}

type waveShortRow struct {
	bun.BaseModel `bun:"table:picking_wave_shorts,alias:pws"`

	WaveID        int64 `bun:"wave_id,pk"`
	OrderDetailID int64 `bun:"order_detail_id,pk"`
	OrderID       int64 `bun:"order_id"`
	Quantity      int   `bun:"quantity"`
}

// waveSkippedJSON is how a skipped order is kept in its wave's row.
type waveSkippedJSON struct {
	OrderID    int64               `json:"orderId"`
	Shortfalls []waveShortfallJSON `json:"shortfalls"`
}

type waveShortfallJSON struct {
	OrderDetailID int64  `json:"orderDetailId"`
	Message       string `json:"message"`
}

var waveColumns = columns{
	"pickingWave.id": "pw.id", "pickingWave.warehouseId": "pw.warehouse_id", "pickingWave.createdAt": "pw.created_at",
	"pickingWave.user": "pw.user_name",
}

// waveRowsPerInsert keeps one insert's bound values well below what
// either database takes in one statement.
const waveRowsPerInsert = 1000

type waves struct{ s *store }

func (s *store) Waves() ports.WaveRepository { return waves{s} }

func (r waves) Add(ctx context.Context, w *wave.Wave) error {
	skipped := make([]waveSkippedJSON, 0, len(w.Skipped()))
	for _, sk := range w.Skipped() {
		j := waveSkippedJSON{OrderID: sk.OrderID}
		for _, f := range sk.Shortfalls {
			j.Shortfalls = append(j.Shortfalls, waveShortfallJSON{f.OrderDetailID, f.Message})
		}
		skipped = append(skipped, j)
	}
	raw, err := json.Marshal(skipped)
	if err != nil {
		return err
	}
	row := &waveRow{WarehouseID: w.WarehouseID(), CreatedAt: w.CreatedAt().UTC(), User: w.User(), Skipped: string(raw)}
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return err
	}
	w.AssignID(row.ID)
	return r.Save(ctx, w)
}

func (r waves) Save(ctx context.Context, w *wave.Wave) error {
	var added, changed []waveTaskRow
	var allocations []waveTaskOrderRow
	var rewritten []int64
	for _, t := range w.Tasks() {
		if !t.Changed() {
			continue
		}
		it := t.Item()
		row := waveTaskRow{WaveID: w.ID(), ID: t.ID(), BinLocationID: it.BinLocationID, BinLocationCode: it.BinLocationCode,
			ArticleDetailID: it.ArticleDetailID, LotNumber: it.Lot, Status: string(t.Status())}
		if t.New() {
			added = append(added, row)
		} else {
			changed = append(changed, row)
			rewritten = append(rewritten, t.ID())
		}
		for _, a := range t.Orders() {
			allocations = append(allocations, waveTaskOrderRow{WaveID: w.ID(), TaskID: t.ID(), OrderDetailID: a.OrderDetailID,
				OrderID: a.OrderID, Quantity: a.Quantity, Picked: a.Picked})
		}
	}
	if err := insertWaveRows(ctx, r.s.idb, added); err != nil {
		return err
	}
	for _, row := range changed {
		if _, err := r.s.idb.NewUpdate().Model(&row).Column("status").WherePK().Exec(ctx); err != nil {
			return err
		}
	}
	if len(rewritten) > 0 {
		if _, err := r.s.idb.NewDelete().Model((*waveTaskOrderRow)(nil)).
			Where("wave_id = ?", w.ID()).Where("task_id IN (?)", bun.List(rewritten)).Exec(ctx); err != nil {
			return err
		}
	}
	if err := insertWaveRows(ctx, r.s.idb, allocations); err != nil {
		return err
	}
	if w.ShortChanged() {
		if _, err := r.s.idb.NewDelete().Model((*waveShortRow)(nil)).Where("wave_id = ?", w.ID()).Exec(ctx); err != nil {
			return err
		}
		var shorts []waveShortRow
		for _, sh := range w.Short() {
			shorts = append(shorts, waveShortRow{WaveID: w.ID(), OrderDetailID: sh.OrderDetailID, OrderID: sh.OrderID, Quantity: sh.Quantity})
		}
		if err := insertWaveRows(ctx, r.s.idb, shorts); err != nil {
			return err
		}
	}
	w.Saved()
	return nil
}

// insertWaveRows inserts rows in few statements.
func insertWaveRows[T any](ctx context.Context, idb bun.IDB, rows []T) error {
	for start := 0; start < len(rows); start += waveRowsPerInsert {
		chunk := rows[start:min(start+waveRowsPerInsert, len(rows))]
		if _, err := idb.NewInsert().Model(&chunk).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (r waves) Get(ctx context.Context, id int64) (*wave.Wave, error) {
	var rows []waveRow
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(&rows).Where("pw.id = ?", id)).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("picking wave %d not found", id)
	}
	out, err := r.withTasks(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (r waves) List(ctx context.Context, q ports.ListQuery) (ports.Page[*wave.Wave], error) {
	var rows []waveRow
	total, err := page(ctx, r.s.idb, &rows, q, waveColumns, ports.WaveFields, "pw.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	if err != nil {
		return ports.Page[*wave.Wave]{}, err
	}
	items, err := r.withTasks(ctx, rows)
	return ports.Page[*wave.Wave]{Total: total, Items: items}, err
}

// waveShareRow is a task with one of its shares, as withTasks reads them
// in one statement.
type waveShareRow struct {
	WaveID          int64  `bun:"wave_id"`
	TaskID          int64  `bun:"task_id"`
	BinLocationID   int64  `bun:"bin_location_id"`
	BinLocationCode string `bun:"bin_location_code"`
	ArticleDetailID int64  `bun:"article_detail_id"`
	LotNumber       string `bun:"lot_number"`
	Status          string `bun:"status"`
	ArticleNumber   string `bun:"article_number"`
	EAN             string `bun:"ean"`
	OrderDetailID   int64  `bun:"order_detail_id"`
	OrderID         int64  `bun:"order_id"`
	Quantity        int    `bun:"quantity"`
	Picked          int    `bun:"picked"`
}

// withTasks reads the tasks with their shares and the short lists of the
// waves of rows. The tasks and their shares come in one statement: a read
// outside a transaction sees them as one commit left them, never a task's
// status from before a confirmation beside its picks from after.
func (r waves) withTasks(ctx context.Context, rows []waveRow) ([]*wave.Wave, error) {
	out := make([]*wave.Wave, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var shares []waveShareRow
	if err := r.s.idb.NewSelect().TableExpr("picking_wave_tasks AS pwt").
		ColumnExpr("pwt.wave_id, pwt.id AS task_id, pwt.bin_location_id, pwt.bin_location_code, pwt.article_detail_id, pwt.lot_number, pwt.status").
		ColumnExpr("a.number AS article_number, a.ean").
		ColumnExpr("pwo.order_detail_id, pwo.order_id, pwo.quantity, pwo.picked").
		Join("JOIN article_details AS a ON a.id = pwt.article_detail_id").
		Join("JOIN picking_wave_task_orders AS pwo ON pwo.wave_id = pwt.wave_id AND pwo.task_id = pwt.id").
		Where("pwt.wave_id IN (?)", bun.List(ids)).
		OrderExpr("pwt.wave_id, pwt.id, pwo.order_id, pwo.order_detail_id").Scan(ctx, &shares); err != nil {
		return nil, err
	}
	var shorts []waveShortRow
	if err := r.s.idb.NewSelect().Model(&shorts).Where("wave_id IN (?)", bun.List(ids)).
		OrderExpr("wave_id, order_id, order_detail_id").Scan(ctx); err != nil {
		return nil, err
	}
	byWave := map[int64][]wave.TaskRecord{}
	for _, sh := range shares {
		tasks := byWave[sh.WaveID]
		if n := len(tasks); n == 0 || tasks[n-1].ID != sh.TaskID {
			tasks = append(tasks, wave.TaskRecord{ID: sh.TaskID, Status: sh.Status,
				Item: wave.Item{BinLocationID: sh.BinLocationID, BinLocationCode: sh.BinLocationCode, ArticleDetailID: sh.ArticleDetailID,
					ArticleNumber: sh.ArticleNumber, EAN: sh.EAN, Lot: sh.LotNumber}})
		}
		t := &tasks[len(tasks)-1]
		t.Orders = append(t.Orders, wave.Allocation{OrderID: sh.OrderID, OrderDetailID: sh.OrderDetailID, Quantity: sh.Quantity, Picked: sh.Picked})
		byWave[sh.WaveID] = tasks
	}
	shortOf := map[int64][]wave.Short{}
	for _, s := range shorts {
		shortOf[s.WaveID] = append(shortOf[s.WaveID], wave.Short{OrderID: s.OrderID, OrderDetailID: s.OrderDetailID, Quantity: s.Quantity})
	}
	for i, row := range rows {
		var kept []waveSkippedJSON
		if err := json.Unmarshal([]byte(row.Skipped), &kept); err != nil {
			return nil, err
		}
		skipped := make([]wave.Skipped, len(kept))
		for j, k := range kept {
			skipped[j] = wave.Skipped{OrderID: k.OrderID}
			for _, f := range k.Shortfalls {
				skipped[j].Shortfalls = append(skipped[j].Shortfalls, wave.Shortfall{OrderDetailID: f.OrderDetailID, Message: f.Message})
			}
		}
		w, err := wave.UnmarshalWaveFromDatabase(row.ID, row.WarehouseID, row.CreatedAt, row.User, byWave[row.ID], skipped, shortOf[row.ID])
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}

func (r waves) OpenOrderIDs(ctx context.Context, after int64, limit int) ([]int64, error) {
	var ids []int64
	err := r.s.idb.NewSelect().Table("orders").Column("id").Where("status = ?", "Open").Where("id > ?", after).
		OrderExpr("id").Limit(int64(limit)).Scan(ctx, &ids)
	return ids, err
}

func (r waves) WavesOf(ctx context.Context, orderIDs []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(orderIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		OrderID int64 `bun:"order_id"`
		WaveID  int64 `bun:"wave_id"`
	}
	err := r.s.idb.NewSelect().Table("picking_wave_task_orders").ColumnExpr("order_id, MAX(wave_id) AS wave_id").
		Where("order_id IN (?)", bun.List(orderIDs)).Group("order_id").Scan(ctx, &rows)
	for _, row := range rows {
		out[row.OrderID] = row.WaveID
	}
	return out, err
}

func (r waves) Articles(ctx context.Context, ids []int64) (map[int64]ports.WaveArticle, error) {
	out := map[int64]ports.WaveArticle{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID     int64  `bun:"id"`
		Number string `bun:"number"`
		EAN    string `bun:"ean"`
	}
	if err := r.s.idb.NewSelect().Table("article_details").Column("id", "number", "ean").
		Where("id IN (?)", bun.List(ids)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.ID] = ports.WaveArticle{Number: row.Number, EAN: row.EAN}
	}
	return out, nil
}
