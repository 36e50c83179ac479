package bench_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The shop of the mixed workload: 2000 products on 200 bins, each product
// on two bins with 500 pieces on each; the first 400 products take 80% of
// the picks; every tenth product has a reorder point of 990.
const (
	shopProducts = 2000
	shopHot      = 400
	shopBins     = 200
	shopStock    = 500
	shopClients  = 16
)

// shopBinsOf are the two bins (1…shopBins) that product p lies on; the
// first receives its purchase orders.
func shopBinsOf(p int) [2]int {
	return [2]int{p%shopBins + 1, (p+shopBins/2)%shopBins + 1}
}

// orderLine is a position of an order or a purchase order.
type orderLine struct{ product, quantity int }

// shop is what the mixed workload does, through the service or the floor.
// Each method is one transaction type, as client c.
type shop interface {
	// newOrder creates an order and reserves its picking list; a refused
	// picking list (a shortfall) is errShortfall, the order then stays.
	newOrder(c int, number string, lines []orderLine) (int64, error)
	ship(c int, order int64) error
	status(c int, order int64) error
	receive(c int, number string, lines []orderLine) error
	lowStock(c int) error
	feed(c int, after int64) (int64, error)
}

var errShortfall = errors.New("picking list refused: shortfall")

// BenchmarkOutsideMixed runs a shop's mixed workload, shaped like TPC-C,
// from 16 clients: 45% new orders of 5–15 positions (1–3 pieces each) over
// 2000 products, 20% of which take 80% of the picks, each followed by its
// picking list; 35% shipping a reserved order; 8% an order's status; 4% a
// purchase order of 5 lines created and received in full; 4% the first
// page (50) of products below their reorder point; 4% a feed read of 100
// from the client's last position. It runs first against the floor (a
// plain client doing the same transactions by hand on tables of its own:
// outside_mixed_floor_test.go) and then against the real binary over HTTP, and
// reports new orders per second of each, service / floor, and the p50 of
// each transaction type. Afterwards it checks on both: no mapping below
// zero or reserved beyond its stock, reservations that add up, every
// shipped order's pieces gone from the stock, and ledger sums equal to
// stock. INVENTORY_BENCH_MIXED (default 20000) is the number of
// transactions of each run.
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench OutsideMixed -benchtime 1x
func BenchmarkOutsideMixed(b *testing.B) {
	total := envInt(b, "INVENTORY_BENCH_MIXED", 20000)
	eachDatabase(b, func(b *testing.B, url string) {
		svc := startService(b, url)
		t0 := time.Now()
		service, err := newServiceShop(svc.api)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("loaded the shop through the API in %v", time.Since(t0).Round(time.Millisecond))
		floor := newMixedFloor(b, url)

		floorRun := runMixed(b, floor, total)
		serviceRun := runMixed(b, service, total)
		b.ReportMetric(serviceRun.ordersPerSecond(), "service-orders/s")
		b.ReportMetric(floorRun.ordersPerSecond(), "floor-orders/s")
		b.ReportMetric(serviceRun.ordersPerSecond()/floorRun.ordersPerSecond(), "of-floor")
		for _, kind := range mixKinds {
			b.ReportMetric(ms(median(serviceRun.times[kind])), "service-"+kind+"-p50-ms")
			b.ReportMetric(ms(median(floorRun.times[kind])), "floor-"+kind+"-p50-ms")
		}
		b.Logf("shortfalls (orders whose picking list was refused): service %d, floor %d", serviceRun.shortfalls, floorRun.shortfalls)

		db := openSQL(b, url)
		checkCounts(b, db, serviceStockChecks)
		checkCounts(b, db, map[string]string{
			"mappings whose reserved stock is not their reservations' sum": `SELECT COUNT(*) FROM stock_mappings AS m
WHERE m.reserved_stock <> (SELECT COALESCE(SUM(r.quantity), 0) FROM reservations AS r
  WHERE r.bin_location_id = m.bin_location_id AND r.article_detail_id = m.article_detail_id)`,
		})
		checkShippedPieces(b, db, serviceRun.shipped,
			`SELECT article_detail_id, -SUM(quantity) FROM stock_ledger_entries WHERE type = 'shipment' GROUP BY article_detail_id`,
			`SELECT article_detail_id, SUM(shipped) FROM order_details WHERE shipped > 0 GROUP BY article_detail_id`)
		checkCounts(b, floor.db, mixedFloorChecks)
		checkShippedPieces(b, floor.db, floorRun.shipped,
			`SELECT product_id, -SUM(quantity) FROM ledger WHERE type = 'shipment' GROUP BY product_id`,
			`SELECT product_id, SUM(shipped) FROM order_lines WHERE shipped > 0 GROUP BY product_id`)
	})
}

// The transaction types, as the metrics name them.
var mixKinds = []string{"new-order", "ship", "status", "receive", "low-stock", "feed"}

// mixedRun is what one run measured.
type mixedRun struct {
	wall       time.Duration
	orders     int
	shortfalls int
	times      map[string][]time.Duration
	shipped    map[int64]int64 // pieces shipped per product, as the clients sent them
}

func (r mixedRun) ordersPerSecond() float64 { return float64(r.orders) / r.wall.Seconds() }

// runMixed runs total transactions from shopClients clients against s.
// Orders waiting to be shipped come from a queue that new orders fill;
// before the clock starts each client puts 5 reserved orders in it.
func runMixed(b *testing.B, s shop, total int) mixedRun {
	type reserved struct {
		id    int64
		lines []orderLine
	}
	var mu sync.Mutex
	var queue []reserved
	var created []int64
	run := mixedRun{times: map[string][]time.Duration{}, shipped: map[int64]int64{}}
	const prefix = "M" // each run has a database of its own
	order := func(c int, rng *rand.Rand, n int) (int64, error) {
		lines := orderLines(rng)
		id, err := s.newOrder(c, fmt.Sprintf("%s-%d-%d", prefix, c, n), lines)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case errors.Is(err, errShortfall):
			run.shortfalls++
			created = append(created, id)
			return id, nil
		case err != nil:
			return 0, err
		}
		queue = append(queue, reserved{id, lines})
		created = append(created, id)
		return id, nil
	}
	for c := range shopClients {
		rng := rand.New(rand.NewPCG(uint64(c), 0))
		for n := range 5 {
			if _, err := order(c, rng, -1-n); err != nil {
				b.Fatal(err)
			}
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, shopClients)
	start := time.Now()
	for c := range shopClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			var cursor int64
			for n := 0; next.Add(1) <= int64(total); n++ {
				kind, err := "", error(nil)
				t0 := time.Now()
				switch x := rng.IntN(100); {
				case x < 45:
					kind = "new-order"
					_, err = order(c, rng, n)
				case x < 80:
					mu.Lock()
					var o reserved
					if len(queue) > 0 {
						o, queue = queue[0], queue[1:]
					}
					mu.Unlock()
					if o.id == 0 {
						kind = "new-order"
						_, err = order(c, rng, n)
						break
					}
					kind = "ship"
					if err = s.ship(c, o.id); err == nil {
						mu.Lock()
						for _, l := range o.lines {
							run.shipped[int64(l.product)] += int64(l.quantity)
						}
						mu.Unlock()
					}
				case x < 88:
					kind = "status"
					mu.Lock()
					id := created[rng.IntN(len(created))]
					mu.Unlock()
					err = s.status(c, id)
				case x < 92:
					kind = "receive"
					lines := make([]orderLine, 5)
					for i, p := range rng.Perm(shopProducts)[:5] {
						lines[i] = orderLine{p + 1, 50}
					}
					err = s.receive(c, fmt.Sprintf("%s-po-%d-%d", prefix, c, n), lines)
				case x < 96:
					kind = "low-stock"
					err = s.lowStock(c)
				default:
					kind = "feed"
					cursor, err = s.feed(c, cursor)
				}
				if err != nil {
					errs <- fmt.Errorf("client %d, %s: %w", c, kind, err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				run.times[kind] = append(run.times[kind], d)
				if kind == "new-order" {
					run.orders++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	run.wall = time.Since(start)
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return run
}

// orderLines are 5–15 positions on distinct products, 80% of them on the
// hot fifth of the products, 1–3 pieces each.
func orderLines(rng *rand.Rand) []orderLine {
	n := 5 + rng.IntN(11)
	seen := map[int]bool{}
	lines := make([]orderLine, 0, n)
	for len(lines) < n {
		p := 1 + rng.IntN(shopHot)
		if rng.IntN(10) >= 8 {
			p = shopHot + 1 + rng.IntN(shopProducts-shopHot)
		}
		if !seen[p] {
			seen[p] = true
			lines = append(lines, orderLine{p, 1 + rng.IntN(3)})
		}
	}
	return lines
}

// checkShippedPieces compares the pieces the clients shipped per product
// with what each query counts per product (the stock that left, the
// positions' shipped quantities).
func checkShippedPieces(b *testing.B, db *sql.DB, want map[int64]int64, queries ...string) {
	b.Helper()
	for _, q := range queries {
		got := map[int64]int64{}
		rows, err := db.Query(q)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var p, n int64
			if err := rows.Scan(&p, &n); err != nil {
				b.Fatal(err)
			}
			got[p] = n
		}
		if err := rows.Close(); err != nil {
			b.Fatal(err)
		}
		var wrong []string
		for p, n := range want {
			if got[p] != n {
				wrong = append(wrong, fmt.Sprintf("product %d: %d, not %d", p, got[p], n))
			}
		}
		for p, n := range got {
			if _, ok := want[p]; !ok && n != 0 {
				wrong = append(wrong, fmt.Sprintf("product %d: %d, not 0", p, n))
			}
		}
		slices.Sort(wrong)
		if len(wrong) > 0 {
			b.Fatalf("shipped pieces do not add up (%s): %v", q, wrong[:min(len(wrong), 10)])
		}
	}
}

// serviceShop is the shop through the API.
type serviceShop struct {
	api       client
	warehouse int64
	poLine    atomic.Int64 // purchase order lines get ids of the client's
}

// newServiceShop creates the warehouse SHOP, its bins S1…S200, the
// products and their stock through the API.
func newServiceShop(api client) (*serviceShop, error) {
	out, err := api.must(http.StatusCreated, http.MethodPost, "/api/warehouses", map[string]any{
		"code": "SHOP", "name": "Shop",
		"binLocationFormatComponents": []map[string]any{{"type": "text", "value": "S"}, {"type": "number", "from": 1, "to": shopBins}},
	})
	if err != nil {
		return nil, err
	}
	s := &serviceShop{api: api}
	if s.warehouse, err = createdID(out); err != nil {
		return nil, err
	}
	if _, err := api.must(http.StatusOK, http.MethodPost, fmt.Sprintf("/api/warehouses/%d/binLocations/generate", s.warehouse), map[string]any{}); err != nil {
		return nil, err
	}
	if err := parallel(8, shopProducts, func(i int) error {
		p := i + 1
		product := map[string]any{"id": p, "number": fmt.Sprintf("SHOP%d", p)}
		if p%10 == 0 {
			product["reorderPoint"] = 2*shopStock - 10
		}
		_, err := api.must(http.StatusCreated, http.MethodPost, "/api/articleDetails", product)
		return err
	}); err != nil {
		return nil, err
	}
	var ops []map[string]any
	for p := 1; p <= shopProducts; p++ {
		for _, bin := range shopBinsOf(p) {
			ops = append(ops, map[string]any{"articleDetailId": p, "quantity": shopStock,
				"binLocation": map[string]any{"code": fmt.Sprintf("S%d", bin), "warehouseId": s.warehouse}})
		}
	}
	for start := 0; start < len(ops); start += 1000 {
		if _, err := api.must(http.StatusOK, http.MethodPut, fmt.Sprintf("/api/stock/set/shop-load-%d", start), ops[start:min(start+1000, len(ops))]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *serviceShop) newOrder(_ int, number string, lines []orderLine) (int64, error) {
	details := make([]map[string]any, len(lines))
	for i, l := range lines {
		details[i] = map[string]any{"articleDetailId": l.product, "quantity": l.quantity}
	}
	out, err := s.api.must(http.StatusCreated, http.MethodPost, "/api/orders", map[string]any{"number": number, "details": details})
	if err != nil {
		return 0, err
	}
	id, err := createdID(out)
	if err != nil {
		return 0, err
	}
	status, out, err := s.api.call(http.MethodPost, fmt.Sprintf("/api/orders/%d/pickingList", id), nil)
	switch {
	case err != nil:
		return 0, err
	case status == http.StatusBadRequest:
		return id, errShortfall
	case status != http.StatusOK:
		return 0, fmt.Errorf("picking list of order %d: %d %.300s", id, status, out)
	}
	return id, nil
}

func (s *serviceShop) ship(_ int, order int64) error {
	_, err := s.api.must(http.StatusOK, http.MethodPut, fmt.Sprintf("/api/orders/%d/ship", order), map[string]any{"suppressStatusMail": true})
	return err
}

func (s *serviceShop) status(_ int, order int64) error {
	_, err := s.api.must(http.StatusOK, http.MethodGet, fmt.Sprintf("/api/orders/%d", order), nil)
	return err
}

func (s *serviceShop) receive(_ int, number string, lines []orderLine) error {
	body := map[string]any{"number": number, "warehouse": map[string]any{"id": s.warehouse}}
	var poLines, receipt []map[string]any
	for _, l := range lines {
		id := s.poLine.Add(1)
		poLines = append(poLines, map[string]any{"id": id, "articleDetailId": l.product, "quantity": l.quantity})
		receipt = append(receipt, map[string]any{"lineId": id, "quantity": l.quantity,
			"binLocation": map[string]any{"code": fmt.Sprintf("S%d", shopBinsOf(l.product)[0]), "warehouseId": s.warehouse}})
	}
	body["lines"] = poLines
	out, err := s.api.must(http.StatusCreated, http.MethodPost, "/api/purchaseOrders", body)
	if err != nil {
		return err
	}
	id, err := createdID(out)
	if err != nil {
		return err
	}
	_, err = s.api.must(http.StatusCreated, http.MethodPost, fmt.Sprintf("/api/purchaseOrders/%d/receipts", id), map[string]any{"lines": receipt})
	return err
}

func (s *serviceShop) lowStock(int) error {
	_, err := s.api.must(http.StatusOK, http.MethodGet, "/api/articleDetails?limit=50&"+filter("articleDetail.belowReorderPoint", "true"), nil)
	return err
}

func (s *serviceShop) feed(_ int, after int64) (int64, error) {
	out, err := s.api.must(http.StatusOK, http.MethodGet, fmt.Sprintf("/api/events?after=%d&limit=100", after), nil)
	if err != nil {
		return 0, err
	}
	var page struct {
		Last int64 `json:"last"`
	}
	if err := json.Unmarshal(out, &page); err != nil {
		return 0, err
	}
	return page.Last, nil
}
