package test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The expiry of lots with a clock the test controls: at midnight UTC a lot
// expires; every instance records expiries; the lot's holds are released, its
// pieces count as expired, and its product's stock.changed (cause expiry) is
// recorded once.

type fixedClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fixedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// instance is another service process on the same database, with its own
// connections and the test's clock.
func instance(t *testing.T, databaseURL string, clock *fixedClock) *application.App {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return application.New(db, clock, apitest.Secrets(t))
}

func TestALotExpiresOnceAfterMidnightHoweverManyInstancesRun(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := lotSetup(t, databaseURL)
		today := time.Now().UTC().Truncate(24 * time.Hour)
		soon := today.AddDate(0, 0, 1).Format("2006-01-02")
		f.ok("stock/set", lotOp(f.tracked, 5, ohBin(f.binA), lot("SOON", soon)), lotOp(f.tracked, 5, ohBin(f.binB), lot("LATER", today.AddDate(1, 0, 0).Format("2006-01-02"))))
		o := f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{"number": "EXP-1", "details": []any{
			map[string]any{"articleDetailId": f.tracked, "quantity": 3}}}), false)
		if ps := picks(t, f.env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", o), nil), o); len(ps) != 1 || ps[0].(map[string]any)["lotNumber"] != "SOON" {
			t.Fatalf("picks %v, want SOON first", ps)
		}
		_, after := evSince(t, f.env, 0)

		// The day after SOON's best-before, 30 seconds after midnight.
		clock := &fixedClock{now: today.AddDate(0, 0, 2).Add(30 * time.Second)}
		ctx := application.WithPrincipal(context.Background(), application.System)
		before := &fixedClock{now: today.AddDate(0, 0, 2).Add(-time.Second)}
		if n, err := instance(t, databaseURL, before).ExpireLots(ctx); err != nil || n != 0 {
			t.Fatalf("a second before midnight: %d lots counted, %v", n, err)
		}
		instances := []*application.App{instance(t, databaseURL, clock), instance(t, databaseURL, clock), instance(t, databaseURL, clock)}
		counted := make([]int, len(instances))
		var wg sync.WaitGroup
		for i, app := range instances {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := app.ExpireLots(ctx)
				if err != nil {
					t.Errorf("instance %d: %v", i, err)
				}
				counted[i] = n
			}()
		}
		wg.Wait()
		if total := counted[0] + counted[1] + counted[2]; total != 1 {
			t.Errorf("lots counted %v, want 1 in all", counted)
		}

		// Released, counted as expired, recorded once.
		requireLots(t, "A-01", f.lotsOn(f.binA), lotEntry("SOON", soon, 5, 0))
		a := f.article(f.tracked)
		if a["expiredStock"] != float64(5) || a["physicalStockForSale"] != float64(5) || a["reservedStock"] != float64(0) {
			t.Errorf("after expiry: expiredStock %v, physicalStockForSale %v, reservedStock %v", a["expiredStock"], a["physicalStockForSale"], a["reservedStock"])
		}
		events, _ := evSince(t, f.env, after)
		expiries := 0
		for _, e := range events {
			if cause, _ := e.Data["cause"].(map[string]any); e.Type == "stock.changed" && cause["type"] == "expiry" {
				expiries++
				if e.Data["expiredStock"] != float64(5) {
					t.Errorf("stock.changed of the expiry: expiredStock %v", e.Data["expiredStock"])
				}
			}
		}
		if expiries != 1 {
			t.Errorf("%d stock.changed with cause expiry, want 1: %v", expiries, evTypes(events))
		}

		// A picking list made again takes the other lot.
		p, err := instances[0].ReservePickingList(apitest.Admin(), application.OrderRef{ID: o}, nil)
		if err != nil || len(p.Picks) != 1 || p.Picks[0].LotNumber != "LATER" {
			t.Errorf("picking again: %+v, %v", p.Picks, err)
		}
	})
}

// Taking goes by the date from midnight on; a lot's expired in /api/lots
// and the product's figures (expiredStock, availableStock) both follow
// when the expiry is counted, so that they agree at every moment: before
// midnight, after midnight until an instance counts the expiry, and after.
func TestLotsAndFiguresAgreeAcrossMidnight(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := lotSetup(t, databaseURL)
		today := time.Now().UTC().Truncate(24 * time.Hour)
		soon := today.AddDate(0, 0, 1).Format("2006-01-02")
		later := today.AddDate(1, 0, 0).Format("2006-01-02")
		f.ok("stock/set", lotOp(f.tracked, 5, ohBin(f.binA), lot("SOON", soon)), lotOp(f.tracked, 5, ohBin(f.binB), lot("LATER", later)))

		// A second before the midnight that ends SOON's best-before day.
		clock := &fixedClock{now: today.AddDate(0, 0, 2).Add(-time.Second)}
		app := instance(t, databaseURL, clock)
		outstanding := 0.0 // what orders still have to ship
		agree := func(step string, expired bool) {
			t.Helper()
			list := ohOK(t, f.env.Do(t, "GET", "/api/lots?filter[0][property]=lot.number&filter[0][value]=SOON", nil))["data"].([]any)
			if len(list) != 1 {
				t.Fatalf("%s: lots %v", step, list)
			}
			listed := list[0].(map[string]any)["expired"]
			id := ohInt(t, list[0].(map[string]any)["id"])
			one := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/lots/%d", id), nil))["data"].(map[string]any)["expired"]
			// The same read on the instance whose clock the test moves.
			if l, err := app.Lot(apitest.Admin(), id); err != nil || l.Expired != expired {
				t.Errorf("%s: SOON read at %v: expired %v, %v; want %v", step, clock.Now(), l.Expired, err, expired)
			}
			wantStock := 0.0
			if expired {
				wantStock = 5
			}
			a := f.article(f.tracked)
			if listed != expired || one != expired || a["expiredStock"] != wantStock || a["availableStock"] != 10-wantStock-outstanding {
				t.Errorf("%s: SOON expired %v (listed), %v (read alone); expiredStock %v, availableStock %v; want expired %v with %v expired pieces",
					step, listed, one, a["expiredStock"], a["availableStock"], expired, wantStock)
			}
		}
		agree("before midnight", false)

		// 30 seconds after that midnight, before any instance counted the
		// expiry.
		clock.mu.Lock()
		clock.now = today.AddDate(0, 0, 2).Add(30 * time.Second)
		clock.mu.Unlock()
		agree("after midnight, not counted yet", false)
		o := f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{"number": "MIDNIGHT-1", "details": []any{
			map[string]any{"articleDetailId": f.tracked, "quantity": 3}}}), false)
		outstanding = 3
		agree("after midnight, with an order", false)
		p, err := app.ReservePickingList(apitest.Admin(), application.OrderRef{ID: o}, nil)
		if err != nil || len(p.Picks) != 1 || p.Picks[0].LotNumber != "LATER" {
			t.Errorf("a picking list after midnight takes no piece of SOON: %+v, %v", p.Picks, err)
		}

		ctx := application.WithPrincipal(context.Background(), application.System)
		if n, err := app.ExpireLots(ctx); err != nil || n != 1 {
			t.Fatalf("counting the expiry: %d lots, %v", n, err)
		}
		agree("after the expiry was counted", true)
	})
}
