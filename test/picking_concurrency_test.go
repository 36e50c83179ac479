package test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/test/testdb"
)

// Picking lists for orders competing for scarce stock, shipments from
// reserved bins, cancellations, returns and stock changes, all at once on
// PostgreSQL: first twelve picking lists race for five pieces and exactly
// five succeed; afterwards every mapping's reservedStock is within its stock
// and equals its reservations, no position holds more than it still has to
// ship, the ledger matches the stock, and no client saw anything but a
// broken business rule (never a deadlock).
func TestPickingConcurrentlyPostgres(t *testing.T) {
	pickingConcurrently(t, testdb.Postgres(t), 16, 3*time.Second, true)
}

func TestPickingConcurrentlySQLite(t *testing.T) {
	// Too short (under -race) to be sure every kind of request succeeds:
	// the race for scarce stock, picking lists and stock changes that
	// succeed, and the invariants are what counts here.
	pickingConcurrently(t, testdb.SQLite(t), 4, 1500*time.Millisecond, false)
}

type pickingWorld struct {
	w1, w2   int64
	bins     []int64 // bins of w1 and w2 (null bins included)
	articles []int64
	// tracked are the lot-tracked articles (half of them): their stock
	// lies in an expired lot and in two that are not.
	tracked map[int64]bool
	orders  []int64
	details []int64
}

// The lots of the tracked articles: OLD expired long ago.
var pickingLots = []*stock.LotSpec{
	{Number: "OLD", BestBefore: lotDate("2020-01-01"), BestBeforeGiven: true},
	{Number: "SOON", BestBefore: lotDate("2099-01-01"), BestBeforeGiven: true},
	{Number: "UNDATED"},
}

// lotIn is the lot pieces of article come in with: none for an article
// that is not tracked, else one of the three.
func (w *pickingWorld) lotIn(article int64, rng *rand.Rand) *stock.LotSpec {
	if !w.tracked[article] {
		return nil
	}
	return pickingLots[rng.IntN(len(pickingLots))]
}

// pickingKinds are the steps a full run must see succeed.
var pickingKinds = []string{"pick", "ship order", "ship detail", "cancel", "return", "change"}

func pickingConcurrently(t *testing.T, databaseURL string, workers int, duration time.Duration, everyKind bool) {
	e := newStockEnv(t, databaseURL)
	var w pickingWorld
	var null1, null2 int64
	w.w1, null1 = e.newWarehouse("PW1", true)
	w.w2, null2 = e.newWarehouse("PW2", true)
	w.bins = []int64{null1, e.newBin(w.w1, "A-1"), e.newBin(w.w1, "A-2"), e.newBin(w.w1, "A-3"), null2, e.newBin(w.w2, "B-1")}
	w.tracked = map[int64]bool{}
	for id := int64(1); id <= 4; id++ {
		w.articles = append(w.articles, e.newArticle(id))
		if id > 2 {
			e.trackLots(id)
			w.tracked[id] = true
		}
	}
	var seed []application.BatchOperation
	for _, a := range w.articles {
		seed = append(seed, stockChangeOp(a, 6, stockBin(w.bins[1])), stockChangeOp(a, 6, stockBin(w.bins[2])), stockChangeOp(a, 4, stockBin(w.bins[5])))
		if w.tracked[a] {
			// Each bin gets pieces of the expired lot and of a good one.
			n := len(seed)
			for i, op := range seed[n-3:] {
				c := op.Op.(stock.Change)
				c.Lot = pickingLots[1+i%2]
				seed[n-3+i].Op = c
				c.Lot, c.Quantity = pickingLots[0], 3
				seed = append(seed, application.BatchOperation{Op: c})
			}
		}
	}
	e.mustSucceed("change", seed...)
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	for i := range 60 {
		p := order.NewOrder{Number: fmt.Sprintf("CO-%d", i)}
		for range 1 + rng.IntN(3) {
			// A third of the positions were partly shipped before: there is
			// something to return from the start.
			q := 1 + rng.IntN(4)
			p.Details = append(p.Details, order.NewDetail{ArticleDetailID: w.articles[rng.IntN(len(w.articles))], Quantity: q, Shipped: rng.IntN(3) / 2 * (q / 2)})
		}
		id, err := e.App.CreateOrder(e.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.App.Order(e.ctx, application.OrderRef{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		w.orders = append(w.orders, id)
		for _, d := range o.Details() {
			w.details = append(w.details, d.ID())
		}
	}

	pickScarceStockConcurrently(t, e, w.w1, w.bins[3], workers)
	if t.Failed() {
		return
	}

	ctx, cancel := context.WithTimeout(e.ctx, duration+30*time.Second)
	defer cancel()
	deadline := time.Now().Add(duration)
	// A run that must see every kind succeed goes on past the deadline
	// until it has (under -race on a busy machine a few seconds may see
	// no order fully reserved to ship), up to a limit.
	limit := deadline.Add(20 * time.Second)
	var mu sync.Mutex
	succeeded, refused := map[string]int{}, map[string]int{}
	goOn := func() bool {
		now := time.Now()
		if now.Before(deadline) {
			return true
		}
		if !everyKind || now.After(limit) {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		for _, kind := range pickingKinds {
			if succeeded[kind] == 0 {
				return true
			}
		}
		return refused["pick"] == 0
	}
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			for n := 0; goOn(); n++ {
				kind, err := w.step(ctx, e, rng, fmt.Sprintf("w%d-%d", i, n))
				if err != nil && errs.KindOf(err) != errs.Invalid {
					t.Errorf("worker %d: %s reached the client as %v: %v", i, kind, errs.KindOf(err), err)
					return
				}
				mu.Lock()
				if err == nil {
					succeeded[kind]++
				} else {
					refused[kind]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("%d workers: succeeded %v, refused %v", workers, succeeded, refused)
	// Short runs need not see every kind succeed, but picking lists on
	// fresh orders and stock changes are common and mostly possible: a run
	// where either never succeeded refused what it should have done.
	for _, kind := range []string{"pick", "change"} {
		if succeeded[kind] == 0 {
			t.Errorf("no %s succeeded (%d refused)", kind, refused[kind])
		}
	}
	for _, kind := range pickingKinds {
		if everyKind && succeeded[kind] == 0 {
			t.Errorf("no %s succeeded: the run proves little", kind)
		}
	}
	if everyKind && refused["pick"] == 0 {
		t.Errorf("no picking list fell short: the stock was not scarce")
	}

	e.checkLedger()
	var bad []struct {
		Bin      int64 `bun:"bin_location_id"`
		Article  int64 `bun:"article_detail_id"`
		Stock    int64 `bun:"stock"`
		Reserved int64 `bun:"reserved_stock"`
		Held     int64 `bun:"held"`
	}
	if err := e.DB.Bun().NewRaw(`SELECT m.bin_location_id, m.article_detail_id, m.stock, m.reserved_stock,
  COALESCE((SELECT SUM(r.quantity) FROM reservations AS r WHERE r.bin_location_id = m.bin_location_id AND r.article_detail_id = m.article_detail_id), 0) AS held
FROM stock_mappings AS m`).Scan(e.ctx, &bad); err != nil {
		t.Fatal(err)
	}
	reserved := 0
	for _, m := range bad {
		if m.Reserved < 0 || m.Reserved > m.Stock || m.Reserved != m.Held {
			t.Errorf("article %d on bin %d: stock %d, reservedStock %d, reservations %d", m.Article, m.Bin, m.Stock, m.Reserved, m.Held)
		}
		reserved += int(m.Reserved)
	}
	var orphans int
	if err := e.DB.Bun().NewRaw(`SELECT COUNT(*) FROM reservations AS r WHERE NOT EXISTS
  (SELECT 1 FROM stock_mappings AS m WHERE m.bin_location_id = r.bin_location_id AND m.article_detail_id = r.article_detail_id)`).Scan(e.ctx, &orphans); err != nil {
		t.Fatal(err)
	}
	if orphans != 0 {
		t.Errorf("%d reservations without their mapping", orphans)
	}
	for _, id := range w.orders {
		o, err := e.App.Order(e.ctx, application.OrderRef{ID: id}) // refuses a stored order that breaks its rules
		if err != nil {
			t.Fatalf("order %d: %v", id, err)
		}
		for _, d := range o.Details() {
			if d.Reserved() > o.Outstanding(d) || d.Returned() > d.Shipped() {
				t.Errorf("order %d detail %d: reserved %d, still to ship %d, returned %d of %d shipped",
					id, d.ID(), d.Reserved(), o.Outstanding(d), d.Returned(), d.Shipped())
			}
		}
	}
	t.Logf("%d pieces reserved at the end", reserved)
	requireKeptFigures(t, e.Env)
	requireLotsKept(t, e)
}

// pickScarceStockConcurrently puts 5 pieces of a product of its own on bin
// and has the workers reserve picking lists for 12 orders of one piece each,
// all at once: exactly 5 succeed, the other 7 fall short with a broken
// business rule, each successful order holds its one piece and no other
// order holds any, and the mapping has reserved exactly its stock.
func pickScarceStockConcurrently(t *testing.T, e *stockEnv, warehouse, bin int64, workers int) {
	t.Helper()
	const pieces, orders = 5, 12
	article := e.newArticle(1000)
	e.mustSucceed("change", stockChangeOp(article, pieces, stockBin(bin)))
	ids := make([]int64, orders)
	for i := range ids {
		id, err := e.App.CreateOrder(e.ctx, order.NewOrder{Number: fmt.Sprintf("SCARCE-%d", i), Details: []order.NewDetail{{ArticleDetailID: article, Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	results := make([]error, orders)
	var next atomic.Int64
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range min(workers, orders) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := next.Add(1) - 1; i < orders; i = next.Add(1) - 1 {
				_, results[i] = e.App.ReservePickingList(e.ctx, application.OrderRef{ID: ids[i]}, &stock.WarehouseSpec{ID: warehouse})
			}
		}()
	}
	close(start)
	wg.Wait()

	succeeded := 0
	for i, err := range results {
		switch {
		case err == nil:
			succeeded++
		case errs.KindOf(err) != errs.Invalid:
			t.Errorf("order %d: the picking list reached the client as %v: %v", ids[i], errs.KindOf(err), err)
		}
		o, err := e.App.Order(e.ctx, application.OrderRef{ID: ids[i]})
		if err != nil {
			t.Fatalf("order %d: %v", ids[i], err)
		}
		want := 0
		if results[i] == nil {
			want = 1
		}
		if got := o.Details()[0].Reserved(); got != want {
			t.Errorf("order %d (picking list error %v) holds %d pieces, want %d", ids[i], results[i], got, want)
		}
	}
	if succeeded != pieces {
		t.Errorf("%d of %d picking lists for %d pieces succeeded, want %d", succeeded, orders, pieces, pieces)
	}
	var m struct {
		Stock    int64 `bun:"stock"`
		Reserved int64 `bun:"reserved_stock"`
	}
	if err := e.DB.Bun().NewRaw("SELECT stock, reserved_stock FROM stock_mappings WHERE bin_location_id = ? AND article_detail_id = ?", bin, article).Scan(e.ctx, &m); err != nil {
		t.Fatal(err)
	}
	if m.Stock != pieces || m.Reserved != pieces {
		t.Errorf("the scarce mapping has stock %d, reservedStock %d; want %d and %d", m.Stock, m.Reserved, pieces, pieces)
	}
}

// step runs one random request, as a client would, and tells its kind.
func (w *pickingWorld) step(ctx context.Context, e *stockEnv, rng *rand.Rand, key string) (string, error) {
	ref := application.OrderRef{ID: w.orders[rng.IntN(len(w.orders))]}
	detail := w.details[rng.IntN(len(w.details))]
	switch r := rng.IntN(20); {
	case r < 6:
		var at *stock.WarehouseSpec
		if rng.IntN(4) == 0 {
			at = &stock.WarehouseSpec{ID: w.w2}
		}
		_, err := e.App.ReservePickingList(ctx, ref, at)
		return "pick", err
	case r < 8:
		return "ship order", e.App.ShipOrder(ctx, ref, &stock.WarehouseSpec{ID: w.w1}, true, "tester")
	case r < 11:
		from := stockWarehouse(w.w1)
		if rng.IntN(2) == 0 {
			from = stockBin(w.bins[rng.IntN(len(w.bins))])
		}
		var res application.BatchResult
		ship := application.DetailShipment{OrderDetailID: detail, Quantity: 1 + rng.IntN(2), From: from}
		if rng.IntN(3) == 0 {
			// Named lots, the expired one included: it must be refused.
			ship.Lot = pickingLots[rng.IntN(len(pickingLots))]
		}
		_, err := e.App.ShipOrderDetails(ctx, application.BatchMeta{Key: key, Endpoint: "orderDetails/ship", Fingerprint: key, User: "tester"},
			[]application.DetailShipment{ship}, stockCapture(&res))
		if err == nil && !res.Success {
			err = errs.Invalidf("%s", res.Results[0].Message)
		}
		return "ship detail", err
	case r < 12:
		cancelled := "Cancelled"
		changes := order.Changes{Status: &cancelled}
		if rng.IntN(2) == 0 {
			changes = order.Changes{Details: []order.DetailChange{{ID: detail, Status: "Cancelled"}}}
			if o, err := e.App.Order(ctx, ref); err == nil {
				changes.Details[0].ID = o.Details()[0].ID()
			}
		}
		_, err := e.App.ChangeOrder(ctx, ref, changes, "tester")
		return "cancel", err
	case r < 13:
		_, err := e.App.ReleasePickingList(ctx, ref)
		return "release", err
	case r < 16:
		o, err := e.App.Order(ctx, ref)
		if err != nil {
			return "return", err
		}
		d := o.Details()[rng.IntN(len(o.Details()))]
		req := application.ReturnRequest{Restock: rng.IntN(3) > 0, Lines: []order.ReturnLine{{OrderDetailID: d.ID(), Quantity: 1}}}
		if rng.IntN(2) == 0 {
			req.Lines[0].Lot = w.lotIn(d.ArticleDetailID(), rng)
		}
		if req.Restock && rng.IntN(2) == 0 {
			to := stockBin(w.bins[rng.IntN(len(w.bins))])
			req.To = &to
		}
		meta := application.BatchMeta{User: "tester"}
		if rng.IntN(2) == 0 {
			meta = application.BatchMeta{Key: key, Endpoint: "returns", Fingerprint: key, User: "tester"}
		}
		_, err = e.App.ReturnOrder(ctx, meta, ref, req, func(id int64) ([]byte, error) { return []byte(fmt.Sprint(id)), nil })
		return "return", err
	default:
		q := 1 + rng.IntN(3)
		if rng.IntN(2) == 0 {
			q = -q
		}
		article := w.articles[rng.IntN(len(w.articles))]
		op := stock.Change{ArticleDetailID: article, Quantity: q, At: stockBin(w.bins[rng.IntN(len(w.bins))])}
		if q > 0 || rng.IntN(4) == 0 {
			op.Lot = w.lotIn(article, rng)
		}
		var res application.BatchResult
		_, err := e.App.StockBatch(ctx, application.BatchMeta{Key: key, Endpoint: "stock/change", Fingerprint: key, User: "tester"},
			[]application.BatchOperation{{Op: op}}, stockCapture(&res))
		if err == nil && !res.Success {
			err = errs.Invalidf("%s", res.Results[0].Message)
		}
		return "change", err
	}
}

// requireLotsKept checks the lots of every mapping after a concurrent run:
// each lot keeps 0 ≤ reserved ≤ stock, the lots add up to their mapping,
// their reservations add up to the lot's reservedStock, the ledger's
// entries of each lot add up to its stock, and nothing of the expired lot
// ever shipped.
func requireLotsKept(t *testing.T, e *stockEnv) {
	t.Helper()
	db := e.DB.Bun()
	var broken []string
	if err := db.NewRaw(`SELECT 'mapping ' || m.bin_location_id || '/' || m.article_detail_id || ': stock ' || m.stock || ', reserved ' || m.reserved_stock ||
  ', lots ' || COALESCE(SUM(s.stock), 0) || ', reserved ' || COALESCE(SUM(s.reserved_stock), 0)
FROM stock_mappings AS m JOIN article_details AS a ON a.id = m.article_detail_id AND a.lot_tracked
LEFT JOIN lot_stock AS s ON s.article_detail_id = m.article_detail_id AND s.bin_location_id = m.bin_location_id
GROUP BY m.bin_location_id, m.article_detail_id, m.stock, m.reserved_stock
HAVING m.stock <> COALESCE(SUM(s.stock), 0) OR m.reserved_stock <> COALESCE(SUM(s.reserved_stock), 0)
UNION ALL
SELECT 'lot ' || s.lot_number || ' on ' || s.bin_location_id || ': stock ' || s.stock || ', reserved ' || s.reserved_stock ||
  ', held ' || COALESCE((SELECT SUM(r.quantity) FROM reservations AS r WHERE r.bin_location_id = s.bin_location_id
    AND r.article_detail_id = s.article_detail_id AND r.lot_number = s.lot_number), 0) ||
  ', ledger ' || COALESCE((SELECT SUM(l.quantity) FROM stock_ledger_entries AS l WHERE l.bin_location_id = s.bin_location_id
    AND l.article_detail_id = s.article_detail_id AND l.lot_number = s.lot_number), 0)
FROM lot_stock AS s
WHERE s.reserved_stock < 0 OR s.reserved_stock > s.stock
  OR s.reserved_stock <> COALESCE((SELECT SUM(r.quantity) FROM reservations AS r WHERE r.bin_location_id = s.bin_location_id
    AND r.article_detail_id = s.article_detail_id AND r.lot_number = s.lot_number), 0)
  OR s.stock <> COALESCE((SELECT SUM(l.quantity) FROM stock_ledger_entries AS l WHERE l.bin_location_id = s.bin_location_id
    AND l.article_detail_id = s.article_detail_id AND l.lot_number = s.lot_number), 0)
UNION ALL
SELECT 'shipped ' || (-l.quantity) || ' of the expired lot from ' || l.bin_location_id
FROM stock_ledger_entries AS l WHERE l.type = 'shipment' AND l.lot_number = 'OLD'
UNION ALL
SELECT 'a reservation of the expired lot on ' || r.bin_location_id FROM reservations AS r WHERE r.lot_number = 'OLD'`).Scan(e.ctx, &broken); err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
	var lots int
	if err := db.NewRaw("SELECT COUNT(*) FROM lot_stock").Scan(e.ctx, &lots); err != nil || lots == 0 {
		t.Errorf("%d lots on mappings (%v): the run proves nothing of lots", lots, err)
	}
}
