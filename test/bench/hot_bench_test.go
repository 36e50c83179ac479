package bench_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// hotClients is how many clients ship a hot product's orders at once.
const hotClients = 16

// hotSize is bench.DefaultHotProduct, or 200 orders with -short, to see
// that the benchmark works without paying for the measured size.
func hotSize() bench.HotProduct {
	if testing.Short() {
		return bench.HotProduct{Orders: 200, Bins: 4, Stock: 55}
	}
	return bench.DefaultHotProduct
}

// BenchmarkHotProduct measures shipping orders that all want the same
// product: 2000 open orders of 1 piece each, the product's stock on 4 bins
// of one warehouse, shipped by 16 clients as fast as they can
// (PUT /api/orders/{id}/ship over HTTP). The floor is the same 16 clients
// each running one transaction per order straight in SQL: it marks the
// position shipped and the order delivered, takes 1 piece from the
// product's fullest mapping with a conditional UPDATE (the next mapping if
// that one has run out meanwhile) and writes the ledger entry. Each round
// of b.N ships fresh orders of a fresh product, once through the service
// and once through the floor, in alternating order; after each, the
// invariants (bench.CheckShipped) must hold or the benchmark fails. It
// reports orders shipped per second, the p50 and p99 latency of one
// order's shipment, for both, and of-floor = service orders/s / floor
// orders/s. With fsync on:
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench HotProduct -benchtime 3x
func BenchmarkHotProduct(b *testing.B) {
	shape := hotSize()
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			url := testdb.SQLite(b)
			if database == "postgres" {
				url = testdb.Postgres(b)
			}
			server, db := benchServer(b, url, false)
			transport := &http.Transport{MaxIdleConnsPerHost: hotClients}
			b.Cleanup(transport.CloseIdleConnections)
			api := bench.API{URL: server, User: apitest.User, Key: apitest.Key, HTTP: &http.Client{Transport: transport}}
			ctx := apitest.Admin()
			w, err := bench.NewHotWarehouse(ctx, api, "HOT", shape.Bins)
			if err != nil {
				b.Fatal(err)
			}
			f := hotFloor{floor: newFloor(b, url, db), sqlite: new(sync.Mutex)}
			if f.postgres {
				f.db.SetMaxIdleConns(hotClients)
			}
			settings := durability(b, db)
			var article int64
			b.Run(fmt.Sprintf("clients=%d", hotClients), func(b *testing.B) {
				b.Logf("durability: %s", settings)
				var service, floor []bench.Run
				for n := range b.N {
					b.StopTimer()
					var rounds [2]bench.HotRound
					var err error
					for i := range rounds {
						article++
						if rounds[i], err = bench.PrepareHotRound(ctx, api, w, shape, article); err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					runService := func() {
						run, err := bench.Concurrently(shape.Orders, hotClients, func(i int) error {
							return bench.ShipOrder(ctx, api, rounds[0].Orders[i], w.ID)
						})
						if err != nil {
							b.Fatal(err)
						}
						service = append(service, run)
					}
					runFloor := func() {
						run, err := bench.Concurrently(shape.Orders, hotClients, func(i int) error {
							return f.ship(ctx, rounds[1].Orders[i], w.ID)
						})
						if err != nil {
							b.Fatal(err)
						}
						floor = append(floor, run)
					}
					if n%2 == 0 {
						runService()
						runFloor()
					} else {
						runFloor()
						runService()
					}
					b.StopTimer()
					for i, who := range []string{"service", "floor"} {
						if err := bench.CheckShipped(ctx, db, rounds[i]); err != nil {
							b.Fatalf("after the %s's round: %v", who, err)
						}
					}
				}
				s, fl := merged(service), merged(floor)
				b.ReportMetric(ordersPerSecond(s), "service-orders/s")
				b.ReportMetric(ordersPerSecond(fl), "floor-orders/s")
				b.ReportMetric(ordersPerSecond(s)/ordersPerSecond(fl), "of-floor")
				b.ReportMetric(ms(s.Percentile(50)), "service-p50-ms")
				b.ReportMetric(ms(s.Percentile(99)), "service-p99-ms")
				b.ReportMetric(ms(fl.Percentile(50)), "floor-p50-ms")
				b.ReportMetric(ms(fl.Percentile(99)), "floor-p99-ms")
			})
		})
	}
}

// merged is the runs as one: their latencies, and their time added up.
func merged(runs []bench.Run) bench.Run {
	var out bench.Run
	for _, r := range runs {
		out.Latencies = append(out.Latencies, r.Latencies...)
		out.Elapsed += r.Elapsed
	}
	return out
}

func ordersPerSecond(r bench.Run) float64 { return float64(len(r.Latencies)) / r.Elapsed.Seconds() }

// hotFloor ships an order of the hot-product shape with the least SQL: one
// transaction that marks the position shipped, takes 1 piece from the
// product's fullest mapping with a conditional UPDATE (trying the next
// fullest when another client took the last piece meanwhile), writes the
// ledger entry and marks the order delivered. It keeps no totals or events,
// which the service keeps beside the contract's rows. On SQLite its
// transactions queue in the process (sqlite), as the service's writers do,
// rather than poll for the database's lock.
type hotFloor struct {
	floor
	sqlite *sync.Mutex
}

var dollarParam = regexp.MustCompile(`\$\d+`)

// sql is the query for the floor's database: PostgreSQL's $n, or SQLite's ?
// (every parameter is used once, in order).
func (h hotFloor) sql(query string) string {
	if h.postgres {
		return query
	}
	return dollarParam.ReplaceAllString(query, "?")
}

func (h hotFloor) ship(ctx context.Context, order, warehouse int64) error {
	if !h.postgres {
		h.sqlite.Lock()
		defer h.sqlite.Unlock()
	}
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	var detail, article int64
	if err := h.one(ctx, tx, h.sql(`UPDATE order_details SET shipped = quantity, outstanding = 0, status = 'Completed'
WHERE order_id = $1 AND shipped < quantity RETURNING id, article_detail_id`), []any{order}, &detail, &article); err != nil {
		return fmt.Errorf("floor: position of order %d: %w", order, err)
	}
	rows, err := h.query(ctx, tx, h.sql(`SELECT id, bin_location_id FROM stock_mappings
WHERE article_detail_id = $1 AND warehouse_id = $2 AND stock >= 1 ORDER BY stock DESC, id`), article, warehouse)
	if err != nil {
		return err
	}
	var mappings, bins []int64
	for rows.Next() {
		var m, bin int64
		if err := rows.Scan(&m, &bin); err != nil {
			rows.Close()
			return err
		}
		mappings, bins = append(mappings, m), append(bins, bin)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	bin, after := int64(0), 0
	for i, m := range mappings {
		err := h.one(ctx, tx, h.sql(`UPDATE stock_mappings SET stock = stock - 1 WHERE id = $1 AND stock >= 1 RETURNING stock`), []any{m}, &after)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return err
		}
		bin = bins[i]
		break
	}
	if bin == 0 {
		return fmt.Errorf("floor: no stock left for order %d", order)
	}
	now := time.Now().UTC()
	var at any = now
	if !h.postgres {
		at = now.Format("2006-01-02 15:04:05.999999-07:00")
	}
	if err := h.exec(ctx, tx, h.sql(`INSERT INTO stock_ledger_entries
(article_detail_id, warehouse_id, bin_location_id, type, quantity, stock_after, order_id, order_detail_id, user_name, created_at)
VALUES ($1, $2, $3, 'shipment', -1, $4, $5, $6, 'admin', $7)`), article, warehouse, bin, after, order, detail, at); err != nil {
		return err
	}
	if err := h.exec(ctx, tx, h.sql(`UPDATE orders SET status = 'Completely delivered' WHERE id = $1`), order); err != nil {
		return err
	}
	return tx.Commit()
}

// one runs a query that returns at most one row into dest; no row is
// sql.ErrNoRows.
func (h hotFloor) one(ctx context.Context, tx *sql.Tx, query string, args []any, dest ...any) error {
	rows, err := h.query(ctx, tx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	return rows.Scan(dest...)
}
