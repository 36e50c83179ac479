package test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Transfers raced by three service instances on one PostgreSQL: racing
// shipments never ship a line beyond its quantity, racing receipts never
// receive more than was shipped, and a cancellation racing receipts leaves
// every piece either received or returned (or lost). After every round the
// books hold: for each line shipped = received + returned + lost + in
// transit, the ledger sums to every mapping's stock, the kept figures
// (stock totals, inTransitStock) agree with the rows, and no piece
// appeared or vanished.
func TestTransfersRacedByInstancesPostgres(t *testing.T) {
	databaseURL := testdb.Postgres(t)
	var instances []*apitest.Env
	for range 3 {
		instances = append(instances, apitest.New(t, databaseURL))
	}
	e := &stockEnv{Env: instances[0], t: t, ctx: apitest.Admin()}
	src, _ := e.newWarehouse("SRC", true)
	dst, _ := e.newWarehouse("DST", true)
	srcBins := []int64{e.newBin(src, "S-1"), e.newBin(src, "S-2")}
	e.newBin(dst, "D-1")
	articles := []int64{e.newArticle(1), e.newArticle(2), e.newArticle(3)}
	e.trackLots(3)
	seeded := map[int64]int{}
	var seed []application.BatchOperation
	for _, a := range articles[:2] {
		seed = append(seed, stockChangeOp(a, 60, stockBin(srcBins[0])), stockChangeOp(a, 40, stockBin(srcBins[1])))
		seeded[a] = 100
	}
	for i, l := range []string{"EARLY", "LATE"} {
		c := stock.Change{ArticleDetailID: 3, Quantity: 50, At: stockBin(srcBins[i]),
			Lot: &stock.LotSpec{Number: l, BestBefore: lotDate(fmt.Sprintf("209%d-01-01", i)), BestBeforeGiven: true}}
		seed = append(seed, application.BatchOperation{Op: c})
	}
	seeded[3] = 100
	e.mustSucceed("change", seed...)

	w := &transferRace{t: t, instances: instances, articles: articles, srcBins: srcBins, seeded: seeded,
		shipped: map[int64]int{}, received: map[int64]int{}, full: map[int64]bool{}}
	for round := range 4 {
		lines := make([]transfer.NewLine, len(articles))
		for i, a := range articles {
			lines[i] = transfer.NewLine{ArticleDetailID: a, Quantity: 25}
		}
		id, err := instances[0].App.CreateTransfer(apitest.Admin(), application.TransferRequest{
			NewTransfer: transfer.NewTransfer{Number: fmt.Sprintf("RACE-%d", round), Lines: lines},
			Source:      stock.WarehouseSpec{ID: src}, Destination: stock.WarehouseSpec{ID: dst}})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := instances[0].App.Transfer(apitest.Admin(), id)
		if err != nil {
			t.Fatal(err)
		}
		w.lineIDs = nil
		for _, l := range tr.Lines() {
			w.lineIDs = append(w.lineIDs, l.ID())
		}

		w.race(8, 5, func(ctx context.Context, app *application.App, rng *rand.Rand, key string) error {
			return w.ship(ctx, app, rng, id, key)
		})
		w.check(round, "racing shipments", id)
		w.race(8, 5, func(ctx context.Context, app *application.App, rng *rand.Rand, key string) error {
			return w.receive(ctx, app, rng, id, key)
		})
		w.check(round, "racing receipts", id)
		// Ship some more, then cancel while receipts race it.
		w.race(4, 2, func(ctx context.Context, app *application.App, rng *rand.Rand, key string) error {
			return w.ship(ctx, app, rng, id, key)
		})
		var once sync.Once
		mode := []string{transfer.ReturnInTransit, transfer.LoseInTransit}[round%2]
		w.race(6, 3, func(ctx context.Context, app *application.App, rng *rand.Rand, key string) error {
			cancel := false
			once.Do(func() { cancel = rng.IntN(2) == 0 })
			if cancel {
				status := string(transfer.Cancelled)
				return app.ChangeTransfer(ctx, id, transfer.Change{Status: &status, InTransit: mode})
			}
			return w.receive(ctx, app, rng, id, key)
		})
		status := string(transfer.Cancelled)
		if err := instances[round%3].App.ChangeTransfer(apitest.Admin(), id, transfer.Change{Status: &status, InTransit: mode}); err != nil && errs.KindOf(err) != errs.Invalid {
			t.Fatal(err)
		} else if err != nil {
			t.Logf("round %d: cancelling again: %v", round, err)
		}
		w.check(round, "a cancellation racing receipts", id)
		// Receipts may have completed it before the cancellation came.
		if tr, err := instances[0].App.Transfer(apitest.Admin(), id); err != nil || (tr.Status() != transfer.Cancelled && tr.Status() != transfer.Completed) {
			t.Fatalf("round %d: transfer %v, %v", round, tr, err)
		}
	}
	if w.attempts[0] == 0 || w.attempts[1] == 0 {
		t.Fatalf("no shipment or no receipt succeeded: %v", w.attempts)
	}
	t.Logf("succeeded: %d shipments, %d receipts; refused: %d", w.attempts[0], w.attempts[1], w.attempts[2])
}

type transferRace struct {
	t         *testing.T
	instances []*apitest.Env
	articles  []int64
	srcBins   []int64
	seeded    map[int64]int
	lineIDs   []int64

	mu sync.Mutex
	// shipped and received are what the successful requests asked for,
	// per line.
	shipped, received map[int64]int
	// full are the lines a shipment of everything left shipped whole.
	full map[int64]bool
	// attempts counts the shipments and receipts that succeeded and the
	// requests refused with a 400.
	attempts [3]int
	keys     int
}

// race runs workers goroutines of n calls of step each, every call through
// a random instance.
func (w *transferRace) race(workers, n int, step func(ctx context.Context, app *application.App, rng *rand.Rand, key string) error) {
	w.t.Helper()
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			ctx, cancel := context.WithTimeout(apitest.Admin(), time.Minute)
			defer cancel()
			for range n {
				w.mu.Lock()
				w.keys++
				key := fmt.Sprintf("race-%d", w.keys)
				w.mu.Unlock()
				err := step(ctx, w.instances[rng.IntN(len(w.instances))].App, rng, key)
				if err != nil && errs.KindOf(err) != errs.Invalid {
					w.t.Errorf("worker %d: %v", i, err)
					return
				}
				if err != nil {
					w.mu.Lock()
					w.attempts[2]++
					w.mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if w.t.Failed() {
		w.t.FailNow()
	}
}

func render(int64) ([]byte, error) { return []byte("{}"), nil }

// ship asks one or two lines for a few pieces, sometimes from a named bin,
// or now and then for everything that is left.
func (w *transferRace) ship(ctx context.Context, app *application.App, rng *rand.Rand, id int64, key string) error {
	var lines []transfer.ShipmentLine
	if rng.IntN(20) > 0 {
		for range 1 + rng.IntN(2) {
			l := transfer.ShipmentLine{LineID: w.lineIDs[rng.IntN(len(w.lineIDs))], Quantity: 1 + rng.IntN(5)}
			if rng.IntN(3) == 0 {
				spec := stockBin(w.srcBins[rng.IntN(len(w.srcBins))])
				l.From = &spec
			}
			lines = append(lines, l)
		}
	}
	meta := application.BatchMeta{Key: key, Endpoint: "transfers/shipments", Fingerprint: key, User: "racer"}
	if _, err := app.ShipTransfer(ctx, meta, id, lines, render); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.attempts[0]++
	if lines == nil {
		// Every line is shipped whole now.
		for _, l := range w.lineIDs {
			w.full[l] = true
		}
		return nil
	}
	for _, l := range lines {
		w.shipped[l.LineID] += l.Quantity
	}
	return nil
}

// receive asks a line for a few pieces, naming a lot on the tracked line
// now and then.
func (w *transferRace) receive(ctx context.Context, app *application.App, rng *rand.Rand, id int64, key string) error {
	i := rng.IntN(len(w.lineIDs))
	l := transfer.ReceiptLine{LineID: w.lineIDs[i], Quantity: 1 + rng.IntN(3)}
	if w.articles[i] == 3 && rng.IntN(2) == 0 {
		l.Lot = &stock.LotSpec{Number: []string{"EARLY", "LATE"}[rng.IntN(2)]}
	}
	meta := application.BatchMeta{Key: key, Endpoint: "transfers/receipts", Fingerprint: key, User: "racer"}
	if _, err := app.ReceiveTransfer(ctx, meta, id, []transfer.ReceiptLine{l}, render); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.attempts[1]++
	w.received[l.LineID] += l.Quantity
	return nil
}

// check holds the books of the transfer and of the whole database against
// what the successful requests did.
func (w *transferRace) check(round int, what string, id int64) {
	t := w.t
	t.Helper()
	ctx := apitest.Admin()
	tr, err := w.instances[0].App.Transfer(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range tr.Lines() {
		if l.Shipped() > l.Quantity() || l.InTransit() < 0 || l.Shipped() != l.Received()+l.Returned()+l.Lost()+l.InTransit() {
			t.Errorf("round %d, %s: line %d quantity %d shipped %d received %d returned %d lost %d in transit %d",
				round, what, l.ID(), l.Quantity(), l.Shipped(), l.Received(), l.Returned(), l.Lost(), l.InTransit())
		}
		w.mu.Lock()
		shipped, received, full := w.shipped[l.ID()], w.received[l.ID()], w.full[l.ID()]
		w.mu.Unlock()
		if (full && l.Shipped() != l.Quantity()) || (!full && l.Shipped() != shipped) || l.Received() != received {
			t.Errorf("round %d, %s: line %d shipped %d (requests that succeeded asked %d), received %d (asked %d)",
				round, what, l.ID(), l.Shipped(), shipped, l.Received(), received)
		}
	}
	e := &stockEnv{Env: w.instances[0], t: t, ctx: ctx}
	e.checkLedger()
	requireKeptFigures(t, w.instances[0])
	db := w.instances[0].DB.Bun()
	var rows []struct {
		Article   int64 `bun:"article_detail_id"`
		InTransit int64 `bun:"in_transit"`
		Lost      int64 `bun:"lost"`
	}
	if err := db.NewRaw(`SELECT l.article_detail_id, SUM(x.shipped - x.received - x.returned - x.lost) AS in_transit, SUM(x.lost) AS lost
FROM transfer_line_lots AS x JOIN transfer_lines AS l ON l.id = x.transfer_line_id GROUP BY l.article_detail_id`).Scan(ctx, &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		var kept, onShelves int64
		if err := db.NewRaw("SELECT COALESCE(SUM(quantity), 0) FROM in_transit_stock WHERE article_detail_id = ?", r.Article).Scan(ctx, &kept); err != nil {
			t.Fatal(err)
		}
		if err := db.NewRaw("SELECT COALESCE(SUM(stock), 0) FROM stock_mappings WHERE article_detail_id = ?", r.Article).Scan(ctx, &onShelves); err != nil {
			t.Fatal(err)
		}
		if kept != r.InTransit {
			t.Errorf("round %d, %s: article %d: inTransitStock kept %d, the lines hold %d", round, what, r.Article, kept, r.InTransit)
		}
		if got := onShelves + r.InTransit + r.Lost; got != int64(w.seeded[r.Article]) {
			t.Errorf("round %d, %s: article %d: %d on shelves + %d in transit + %d lost, seeded %d",
				round, what, r.Article, onShelves, r.InTransit, r.Lost, w.seeded[r.Article])
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}
