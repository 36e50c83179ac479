package bench_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/test/bench"
)

// floor does the database work of a 1000-operation change batch and
// nothing else, straight on database/sql with bound parameters: one
// transaction that locks the batch's mappings (found through their bins'
// codes or ids, as the batch names them), updates them in one set-based
// statement, inserts one ledger row per operation, keeps the products'
// stock per warehouse in step (stock_totals, which the schema's figures
// read; one set-based statement), and stores the rendered result under the
// idempotency key. It is the least any implementation of the batch has to
// pay on this schema, so the service is measured against it.
type floor struct {
	db       *sql.DB
	postgres bool
	stmts    *sync.Map // query text → *sql.Stmt: every statement is parsed once per connection
	// unanalysed is for data that nothing may have analysed yet: PostgreSQL
	// then resolves each bin code by its unique key before the mappings are
	// joined, a plan that needs no statistics. Left to the planner, the
	// join can match every code against every bin of the warehouse.
	unanalysed bool
}

// prepared binds to tx the query, prepared once per connection, so that the
// floor pays no parsing per batch (its statements have the same text every
// time: 1000 operations).
func (f floor) prepared(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	if s, ok := f.stmts.Load(query); ok {
		return tx.StmtContext(ctx, s.(*sql.Stmt)), nil
	}
	s, err := f.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := f.stmts.LoadOrStore(query, s); loaded {
		s.Close()
		s = prev.(*sql.Stmt)
	}
	return tx.StmtContext(ctx, s), nil
}

func (f floor) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	s, err := f.prepared(ctx, tx, query)
	if err != nil {
		return err
	}
	_, err = s.ExecContext(ctx, args...)
	return err
}

func (f floor) query(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	s, err := f.prepared(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// floorBatch is one prepared floor batch; its result body is rendered
// before the clock starts, as it is no database work. Its operations name
// their bins by code in warehouse 1 (codes) or by id (bins).
type floorBatch struct {
	key        string
	articles   []int64
	codes      []string
	bins       []int64
	quantities []int64
	response   []byte
}

// newFloor opens the floor's connections. On SQLite it shares the
// service's pool, so that both run with the same pragmas (WAL,
// synchronous=FULL, immediate transactions). On PostgreSQL it has a pool of
// its own with pgx's defaults (binary parameters, cached prepared
// statements) and the planner kept on the unique indexes: with a
// 1000-element list it otherwise hashes the whole mapping table.
func newFloor(b *testing.B, url string, db *bunstore.DB) floor {
	if !db.Postgres() {
		return floor{db: db.Bun().DB, stmts: new(sync.Map)}
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	pool, err := sql.Open("pgx", url+sep+"enable_hashjoin=off&enable_mergejoin=off")
	if err != nil {
		b.Fatal(err)
	}
	pool.SetMaxIdleConns(8)
	b.Cleanup(func() { pool.Close() })
	return floor{db: pool, postgres: true, stmts: new(sync.Map)}
}

func newFloorBatch(s bench.Shape, key string, client, clients, n int) (floorBatch, error) {
	changes, err := bench.Changes(s, client, clients, n, 1000)
	if err != nil {
		return floorBatch{}, err
	}
	fb := floorBatch{key: key}
	for _, c := range changes {
		fb.articles = append(fb.articles, int64(c.ArticleDetailID))
		fb.codes = append(fb.codes, fmt.Sprintf("B%d", c.Bin))
		fb.quantities = append(fb.quantities, int64(bench.Quantity(n)))
	}
	return fb, fb.render()
}

// render writes the batch's result: every operation succeeded.
func (fb *floorBatch) render() error {
	type result struct {
		OperationID int  `json:"operationId"`
		Success     bool `json:"success"`
	}
	results := make([]result, len(fb.articles))
	for i := range results {
		results[i] = result{OperationID: i, Success: true}
	}
	var err error
	fb.response, err = json.Marshal(map[string]any{
		"success": true, "idempotencyKey": fb.key, "createdAt": time.Now().UTC().Format(time.RFC3339), "results": results,
	})
	return err
}

// lockedMapping is a mapping the batch changes; op is the index of the
// operation that changes it, by quantity.
type lockedMapping struct {
	id, bin, article int64
	stock            int
	op               int
	quantity         int64
}

// run runs the batch in one transaction. Batches that share products may
// take the products' totals rows in different orders; a deadlock that
// PostgreSQL breaks is retried, as the service retries it.
func (f floor) run(ctx context.Context, b floorBatch) error {
	for {
		err := f.runOnce(ctx, b)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || (pgErr.Code != "40P01" && pgErr.Code != "40001") {
			return err
		}
	}
}

func (f floor) runOnce(ctx context.Context, b floorBatch) error {
	tx, err := f.db.BeginTx(ctx, nil) // SQLite: BEGIN IMMEDIATE, as the service's
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	locked, err := f.lock(ctx, tx, b)
	if err != nil {
		return err
	}
	if len(locked) != len(b.articles) {
		return fmt.Errorf("floor: locked %d of %d mappings", len(locked), len(b.articles))
	}
	for i := range locked {
		locked[i].quantity = b.quantities[locked[i].op]
		locked[i].stock += int(locked[i].quantity)
		if locked[i].stock < 0 {
			return fmt.Errorf("floor: stock of mapping %d would go negative", locked[i].id)
		}
	}
	now := time.Now().UTC()
	if f.postgres {
		err = f.writePostgres(ctx, tx, b, locked, now)
	} else {
		err = f.writeSQLite(ctx, tx, b, locked, now)
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}

// lock finds and locks the batch's mappings, in id order, each with the
// index of its operation (the operations are in no particular order).
func (f floor) lock(ctx context.Context, tx *sql.Tx, b floorBatch) ([]lockedMapping, error) {
	var rows *sql.Rows
	var err error
	switch {
	case f.postgres && b.bins != nil:
		rows, err = f.query(ctx, tx, `SELECT m.id, m.bin_location_id, m.article_detail_id, m.stock, p.i - 1
FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS p(a, b, i)
JOIN stock_mappings AS m ON m.bin_location_id = p.b AND m.article_detail_id = p.a
ORDER BY m.id FOR UPDATE OF m`, b.articles, b.bins)
	case f.postgres && f.unanalysed:
		rows, err = f.query(ctx, tx, `WITH p AS MATERIALIZED (
  SELECT p.a, p.i, (SELECT b.id FROM bin_locations AS b WHERE b.warehouse_id = 1 AND b.code = p.c) AS b
  FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS p(a, c, i))
SELECT m.id, m.bin_location_id, m.article_detail_id, m.stock, p.i - 1
FROM p JOIN stock_mappings AS m ON m.bin_location_id = p.b AND m.article_detail_id = p.a
ORDER BY m.id FOR UPDATE OF m`, b.articles, b.codes)
	case f.postgres:
		rows, err = f.query(ctx, tx, `SELECT m.id, m.bin_location_id, m.article_detail_id, m.stock, p.i - 1
FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS p(a, c, i)
JOIN bin_locations AS b ON b.warehouse_id = 1 AND b.code = p.c
JOIN stock_mappings AS m ON m.bin_location_id = b.id AND m.article_detail_id = p.a
ORDER BY m.id FOR UPDATE OF m`, b.articles, b.codes)
	default:
		// The immediate transaction holds the database: nothing to lock by row.
		args := make([]any, 0, 3*len(b.articles))
		for i := range b.articles {
			if b.bins != nil {
				args = append(args, b.articles[i], b.bins[i], i)
			} else {
				args = append(args, b.articles[i], b.codes[i], i)
			}
		}
		join := `JOIN bin_locations AS b ON b.warehouse_id = 1 AND b.code = p.c
JOIN stock_mappings AS m ON m.bin_location_id = b.id AND m.article_detail_id = p.a`
		if b.bins != nil {
			join = `JOIN stock_mappings AS m ON m.bin_location_id = p.c AND m.article_detail_id = p.a`
		}
		rows, err = f.query(ctx, tx, `WITH p(a, c, i) AS (VALUES `+placeholders("(?, ?, ?)", len(b.articles))+`)
SELECT m.id, m.bin_location_id, m.article_detail_id, m.stock, p.i
FROM p `+join+`
ORDER BY m.id`, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]lockedMapping, 0, len(b.articles))
	for rows.Next() {
		var m lockedMapping
		if err := rows.Scan(&m.id, &m.bin, &m.article, &m.stock, &m.op); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func (f floor) writePostgres(ctx context.Context, tx *sql.Tx, b floorBatch, locked []lockedMapping, now time.Time) error {
	n := len(locked)
	ids, bins, articles, stocks, quantities, opIDs := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]string, n)
	for i, m := range locked {
		ids[i], bins[i], articles[i], stocks[i], quantities[i], opIDs[i] = m.id, m.bin, m.article, int64(m.stock), m.quantity, fmt.Sprint(m.op)
	}
	if err := f.exec(ctx, tx, `UPDATE stock_mappings AS m SET stock = v.stock
FROM unnest($1::bigint[], $2::int[]) AS v(id, stock) WHERE m.id = v.id`, ids, stocks); err != nil {
		return err
	}
	if err := f.exec(ctx, tx, `INSERT INTO stock_ledger_entries
(article_detail_id, warehouse_id, bin_location_id, type, quantity, stock_after, idempotency_key, operation_id, order_id, order_detail_id, user_name, created_at)
SELECT p.a, 1, p.b, CASE WHEN p.q > 0 THEN 'incoming' ELSE 'outgoing' END, p.q, p.s, $6, p.op, NULL, NULL, 'admin', $7
FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::int[], $5::text[]) AS p(a, b, q, s, op)`,
		articles, bins, quantities, stocks, opIDs, b.key, now); err != nil {
		return err
	}
	totalArticles, totalDeltas := totalsDeltas(locked)
	if err := f.exec(ctx, tx, `UPDATE stock_totals AS t SET stock = t.stock + d.q
FROM unnest($1::bigint[], $2::bigint[]) AS d(a, q)
WHERE t.article_detail_id = d.a AND t.warehouse_id = 1`, totalArticles, totalDeltas); err != nil {
		return err
	}
	err := f.exec(ctx, tx, `INSERT INTO idempotency_keys (key, endpoint, fingerprint, response, created_at)
VALUES ($1, 'stock/change', $2, $3, $4)`, b.key, strings.Repeat("f", 64), b.response, now)
	return err
}

func (f floor) writeSQLite(ctx context.Context, tx *sql.Tx, b floorBatch, locked []lockedMapping, now time.Time) error {
	at := now.Format("2006-01-02 15:04:05.999999-07:00")
	update := make([]any, 0, 2*len(locked))
	ledger := make([]any, 0, 8*len(locked))
	for _, m := range locked {
		update = append(update, m.id, m.stock)
		ledger = append(ledger, m.article, m.bin, entryType(m.quantity), m.quantity, m.stock, b.key, fmt.Sprint(m.op), at)
	}
	if err := f.exec(ctx, tx, `WITH v(id, stock) AS (VALUES `+placeholders("(?, ?)", len(locked))+`)
UPDATE stock_mappings SET stock = v.stock FROM v WHERE stock_mappings.id = v.id`, update...); err != nil {
		return err
	}
	if err := f.exec(ctx, tx, `INSERT INTO stock_ledger_entries
(article_detail_id, warehouse_id, bin_location_id, type, quantity, stock_after, idempotency_key, operation_id, order_id, order_detail_id, user_name, created_at)
VALUES `+placeholders("(?, 1, ?, ?, ?, ?, ?, ?, NULL, NULL, 'admin', ?)", len(locked)), ledger...); err != nil {
		return err
	}
	totalArticles, totalDeltas := totalsDeltas(locked)
	totals := make([]any, 0, 2*len(totalArticles))
	for i := range totalArticles {
		totals = append(totals, totalArticles[i], totalDeltas[i])
	}
	if err := f.exec(ctx, tx, `WITH d(a, q) AS (VALUES `+placeholders("(?, ?)", len(totalArticles))+`)
UPDATE stock_totals SET stock = stock + d.q FROM d
WHERE stock_totals.article_detail_id = d.a AND stock_totals.warehouse_id = 1`, totals...); err != nil {
		return err
	}
	err := f.exec(ctx, tx, `INSERT INTO idempotency_keys (key, endpoint, fingerprint, response, created_at)
VALUES (?, 'stock/change', ?, ?, ?)`, b.key, strings.Repeat("f", 64), b.response, at)
	return err
}

// entryType is the ledger's type of a change by quantity, as the service
// writes it.
func entryType(quantity int64) string {
	if quantity > 0 {
		return "incoming"
	}
	return "outgoing"
}

// totalsDeltas sums the batch's change per product, in product order: what
// the products' stock per warehouse changes by.
func totalsDeltas(locked []lockedMapping) (articles, deltas []int64) {
	sum := map[int64]int64{}
	for _, m := range locked {
		if _, ok := sum[m.article]; !ok {
			articles = append(articles, m.article)
		}
		sum[m.article] += m.quantity
	}
	slices.Sort(articles)
	for _, a := range articles {
		deltas = append(deltas, sum[a])
	}
	return articles, deltas
}

func placeholders(tuple string, n int) string {
	return strings.TrimSuffix(strings.Repeat(tuple+", ", n), ", ")
}
