package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
)

// HotProduct is the shape of shipping a product that every order wants:
// Orders open orders, each with one position of 1 piece of the product,
// whose stock lies on Bins bins of one warehouse, Stock pieces on each.
type HotProduct struct {
	Orders int
	Bins   int
	Stock  int
}

// DefaultHotProduct is the measured shape: 2000 orders, 4 bins. The stock
// is a tenth more than the orders need, so every order can ship whichever
// bins its pieces are taken from.
var DefaultHotProduct = HotProduct{Orders: 2000, Bins: 4, Stock: 550}

// API calls the service's HTTP interface as one API user.
type API struct {
	URL, User, Key string
	HTTP           *http.Client
}

// Call sends body (nil: none) as JSON and returns the status and the body
// of the answer.
func (a API) Call(ctx context.Context, method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.URL+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.SetBasicAuth(a.User, a.Key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := a.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// expect calls the API and fails unless the answer has the status.
func (a API) expect(ctx context.Context, status int, method, path string, body any) ([]byte, error) {
	got, out, err := a.Call(ctx, method, path, body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if got != status {
		return nil, fmt.Errorf("%s %s: %d %.300s", method, path, got, out)
	}
	return out, nil
}

// HotWarehouse is the warehouse whose bins hold the hot products' stock.
type HotWarehouse struct {
	ID   int64
	Bins []int64
}

// NewHotWarehouse creates, through the API, a warehouse with code and bins
// H1…Hn.
func NewHotWarehouse(ctx context.Context, api API, code string, bins int) (HotWarehouse, error) {
	out, err := api.expect(ctx, http.StatusCreated, http.MethodPost, "/api/warehouses", map[string]any{"code": code, "name": "Hot product"})
	if err != nil {
		return HotWarehouse{}, err
	}
	var created struct {
		Data []struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(out, &created); err != nil || len(created.Data) != 1 {
		return HotWarehouse{}, fmt.Errorf("create warehouse: %s", out)
	}
	w := HotWarehouse{ID: created.Data[0].ID}
	for i := range bins {
		id, err := createdID(api.expect(ctx, http.StatusCreated, http.MethodPost, "/api/binLocations",
			map[string]any{"warehouseId": w.ID, "code": fmt.Sprintf("H%d", i+1)}))
		if err != nil {
			return HotWarehouse{}, err
		}
		w.Bins = append(w.Bins, id)
	}
	return w, nil
}

func createdID(out []byte, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	var created struct {
		Data struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(out, &created); err != nil || created.Data.ID == 0 {
		return 0, fmt.Errorf("no id in %s", out)
	}
	return created.Data.ID, nil
}

// HotRound is one round of the shape: its product, and its orders, each
// with one position whose id is the order's.
type HotRound struct {
	Shape     HotProduct
	Warehouse HotWarehouse
	Article   int64
	Orders    []int64
}

// PrepareHotRound creates, through the API, the product article (a fresh
// id), s.Stock pieces of it on each bin of w, and s.Orders open orders for
// 1 piece each. The orders' and positions' ids are article×100 000 + 1….
func PrepareHotRound(ctx context.Context, api API, w HotWarehouse, s HotProduct, article int64) (HotRound, error) {
	if s.Orders >= 100_000 {
		return HotRound{}, fmt.Errorf("%d orders do not fit the ids of a round", s.Orders)
	}
	r := HotRound{Shape: s, Warehouse: w, Article: article}
	if _, err := api.expect(ctx, http.StatusCreated, http.MethodPost, "/api/articleDetails",
		map[string]any{"id": article, "number": fmt.Sprintf("HOT%d", article)}); err != nil {
		return r, err
	}
	ops := make([]map[string]any, len(w.Bins))
	for i, bin := range w.Bins {
		ops[i] = map[string]any{"articleDetailId": article, "quantity": s.Stock, "binLocation": map[string]any{"id": bin}}
	}
	out, err := api.expect(ctx, http.StatusOK, http.MethodPut, fmt.Sprintf("/api/stock/change/hot-stock-%d-%d", article, time.Now().UnixNano()), ops)
	if err != nil {
		return r, err
	}
	if !bytes.Contains(out, []byte(`"success":true`)) {
		return r, fmt.Errorf("put the stock of product %d: %.300s", article, out)
	}
	for i := range s.Orders {
		id := article*100_000 + int64(i) + 1
		if _, err := api.expect(ctx, http.StatusCreated, http.MethodPost, "/api/orders", map[string]any{
			"id": id, "number": fmt.Sprintf("HOT-%d", id),
			"details": []map[string]any{{"id": id, "articleDetailId": article, "quantity": 1}},
		}); err != nil {
			return r, err
		}
		r.Orders = append(r.Orders, id)
	}
	return r, nil
}

// ShipOrder ships an order through the service: PUT /api/orders/{id}/ship
// from the warehouse, without a status mail.
func ShipOrder(ctx context.Context, api API, order, warehouse int64) error {
	_, err := api.expect(ctx, http.StatusOK, http.MethodPut, fmt.Sprintf("/api/orders/%d/ship", order),
		map[string]any{"warehouse": map[string]any{"id": warehouse}, "suppressStatusMail": true})
	return err
}

// Run is what a concurrent run measured.
type Run struct {
	Latencies   []time.Duration // of every call, in the order they ended
	Elapsed     time.Duration
	MaxInFlight int // the most calls that were under way at one time
}

// Concurrently calls do(i) for every i in [0, n) from clients goroutines,
// each taking the next i as soon as its previous call returns, and stops
// at the first error.
func Concurrently(n, clients int, do func(i int) error) (Run, error) {
	var (
		next, inFlight atomic.Int64
		mu             sync.Mutex
		run            Run
		failed         error
		wg             sync.WaitGroup
	)
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				now := int(inFlight.Add(1))
				t0 := time.Now()
				err := do(i)
				d := time.Since(t0)
				inFlight.Add(-1)
				mu.Lock()
				run.MaxInFlight = max(run.MaxInFlight, now)
				run.Latencies = append(run.Latencies, d)
				if err != nil && failed == nil {
					failed = err
					next.Store(int64(n)) // the others stop after their current call
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	run.Elapsed = time.Since(start)
	return run, failed
}

// Percentile is the p-th percentile (0 < p ≤ 100) of the latencies.
func (r Run) Percentile(p int) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	s := slices.Clone(r.Latencies)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// CheckShipped checks what must hold once every order of the round has
// shipped, however many clients shipped them and whatever took the pieces:
// no mapping of the product is below 0; the pieces shipped (the positions'
// shipped quantities), the stock removed (the stock put on the bins less
// the stock left) and the ledger's sum (of the round's shipment entries)
// are all the number of orders; every order is shipped exactly once
// (completely delivered, its position completed and shipped once, with one
// ledger entry of 1 piece); and every bin's ledger adds up to its stock.
// It names every invariant that is broken.
func CheckShipped(ctx context.Context, db *bunstore.DB, r HotRound) error {
	var broken []string
	fail := func(format string, args ...any) { broken = append(broken, fmt.Sprintf(format, args...)) }
	q := db.Bun()
	first, last := r.Article*100_000+1, r.Article*100_000+int64(r.Shape.Orders)

	var negative, left int
	if err := q.NewRaw(`SELECT COUNT(*) FROM stock_mappings WHERE article_detail_id = ? AND stock < 0`, r.Article).Scan(ctx, &negative); err != nil {
		return err
	}
	if negative > 0 {
		fail("%d mappings of product %d are below 0", negative, r.Article)
	}
	if err := q.NewRaw(`SELECT COALESCE(SUM(stock), 0) FROM stock_mappings WHERE article_detail_id = ? AND warehouse_id = ?`, r.Article, r.Warehouse.ID).Scan(ctx, &left); err != nil {
		return err
	}
	var shipped, ledgerSum, entries int
	if err := q.NewRaw(`SELECT COALESCE(SUM(shipped), 0) FROM order_details WHERE order_id BETWEEN ? AND ?`, first, last).Scan(ctx, &shipped); err != nil {
		return err
	}
	if err := q.NewRaw(`SELECT COALESCE(-SUM(quantity), 0), COUNT(*) FROM stock_ledger_entries
WHERE article_detail_id = ? AND type = 'shipment' AND order_id BETWEEN ? AND ?`, r.Article, first, last).Scan(ctx, &ledgerSum, &entries); err != nil {
		return err
	}
	removed := r.Shape.Stock*len(r.Warehouse.Bins) - left
	if shipped != r.Shape.Orders || removed != r.Shape.Orders || ledgerSum != r.Shape.Orders {
		fail("%d orders: %d pieces shipped, %d pieces of stock removed, %d in the ledger's shipment entries", r.Shape.Orders, shipped, removed, ledgerSum)
	}

	var orders []struct {
		ID       int64  `bun:"id"`
		Status   string `bun:"status"`
		Detail   string `bun:"detail_status"`
		Shipped  int    `bun:"shipped"`
		Quantity int    `bun:"quantity"`
		Entries  int    `bun:"entries"`
		Pieces   int    `bun:"pieces"`
	}
	if err := q.NewRaw(`SELECT o.id, o.status, d.status AS detail_status, d.shipped, d.quantity,
  (SELECT COUNT(*) FROM stock_ledger_entries AS l WHERE l.order_detail_id = d.id AND l.type = 'shipment') AS entries,
  (SELECT COALESCE(-SUM(l.quantity), 0) FROM stock_ledger_entries AS l WHERE l.order_detail_id = d.id AND l.type = 'shipment') AS pieces
FROM orders AS o JOIN order_details AS d ON d.order_id = o.id
WHERE o.id BETWEEN ? AND ? ORDER BY o.id`, first, last).Scan(ctx, &orders); err != nil {
		return err
	}
	if len(orders) != r.Shape.Orders {
		fail("%d orders with a position, %d expected", len(orders), r.Shape.Orders)
	}
	var wrong []string
	for _, o := range orders {
		if o.Status != "Completely delivered" || o.Detail != "Completed" || o.Shipped != o.Quantity || o.Entries != 1 || o.Pieces != 1 {
			wrong = append(wrong, fmt.Sprintf("order %d: %s, position %s with %d of %d shipped, %d shipment entries of %d pieces",
				o.ID, o.Status, o.Detail, o.Shipped, o.Quantity, o.Entries, o.Pieces))
		}
	}
	if len(wrong) > 0 {
		fail("%d orders not shipped exactly once, e.g. %s", len(wrong), strings.Join(wrong[:min(3, len(wrong))], "; "))
	}
	if entries != r.Shape.Orders {
		fail("%d shipment entries in the ledger for %d orders", entries, r.Shape.Orders)
	}

	var bins []struct {
		Bin    int64 `bun:"bin_location_id"`
		Ledger int   `bun:"ledger"`
		Stock  int   `bun:"stock"`
	}
	if err := q.NewRaw(`SELECT l.bin_location_id, SUM(l.quantity) AS ledger,
  COALESCE((SELECT m.stock FROM stock_mappings AS m WHERE m.bin_location_id = l.bin_location_id AND m.article_detail_id = l.article_detail_id), 0) AS stock
FROM stock_ledger_entries AS l WHERE l.article_detail_id = ?
GROUP BY l.bin_location_id, l.article_detail_id ORDER BY l.bin_location_id`, r.Article).Scan(ctx, &bins); err != nil {
		return err
	}
	for _, b := range bins {
		if b.Ledger != b.Stock {
			fail("bin %d: the ledger adds up to %d, the stock is %d", b.Bin, b.Ledger, b.Stock)
		}
	}
	if len(broken) > 0 {
		return errors.New("hot product " + fmt.Sprint(r.Article) + ": " + strings.Join(broken, "\n"))
	}
	return nil
}
