package test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Concurrent ShipOrder calls ship together: while one shipment's
// transaction runs, the calls that arrive queue, and the next transaction
// ships them all. In that group each order is still all or nothing with its
// own answer: a cancelled order, one the stock does not cover and one that
// does not exist fail alone, the others ship; an order named twice ships
// once; the one shipment that sends a mail queues it.
func TestShipOrderCombinesConcurrentCalls(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		f.put(f.art1, ordOnBin(f.binA), 4)
		one := func(number, email, status string, quantity int) *order.Order {
			return f.createOrder(order.NewOrder{Number: number, CustomerEmail: email, Status: status,
				Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: quantity}}})
		}
		first := one("G1", "", "", 1)
		mailed := one("G2", "g2@example.com", "", 1)
		cancelled := one("G3", "", "Cancelled", 1)
		tooMany := one("G4", "", "", 10)
		byNumber := one("G5", "g5@example.com", "", 1)
		before, err := f.app.ReadEvents(f.ctx, 0, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}

		app := newHoldingApp(t, f)
		main := &stock.WarehouseSpec{ID: f.main}
		calls := []struct {
			name     string
			ref      application.OrderRef
			from     *stock.WarehouseSpec
			suppress bool
		}{
			{"first", application.OrderRef{ID: first.ID()}, nil, false},
			{"mailed", application.OrderRef{ID: mailed.ID()}, nil, false},
			{"cancelled", application.OrderRef{ID: cancelled.ID()}, main, false},
			{"too many", application.OrderRef{ID: tooMany.ID()}, main, false},
			{"by number", application.OrderRef{Number: "G5"}, main, true},
			{"missing", application.OrderRef{ID: 999_999}, main, false},
			{"mailed again", application.OrderRef{Number: "G2"}, nil, false},
		}
		got := make([]error, len(calls))
		app.run(t, len(calls), app.ShipmentsWaiting, func(i int) {
			c := calls[i]
			got[i] = app.ShipOrder(f.ctx, c.ref, c.from, c.suppress, "tester")
		})

		for i, want := range []errs.Kind{0, 0, errs.Invalid, errs.Invalid, 0, errs.NotFound, 0} {
			if want == 0 && got[i] != nil || want != 0 && errs.KindOf(got[i]) != want {
				t.Errorf("%s: got %v, want kind %v", calls[i].name, got[i], want)
			}
		}
		if n := app.transactions.Load(); n != 2 {
			t.Errorf("%d transactions recorded events, want 2: the first shipment's and the group's", n)
		}
		for _, o := range []*order.Order{first, mailed, byNumber} {
			if s := f.order(o.ID()).Status(); s != order.StatusCompletelyDelivered {
				t.Errorf("order %s is %s, want shipped", o.Number(), s)
			}
		}
		for _, o := range []*order.Order{cancelled, tooMany} {
			if s := ordState(f.order(o.ID())); s != ordState(o) {
				t.Errorf("order %s is %s, want it unchanged (%s)", o.Number(), s, ordState(o))
			}
		}
		if n := f.stockIn(f.art1, f.main); n != 1 {
			t.Errorf("stock left %d, want 1", n)
		}
		if n := len(f.shipments()); n != 3 {
			t.Errorf("%d shipment entries in the ledger, want 3", n)
		}
		if mails := f.outbox(); len(mails) != 1 || mails[0].To != "g2@example.com" {
			t.Errorf("mails %+v, want one to g2@example.com", mails)
		}
		// One stock.changed a transaction: the group's names no order, as
		// it concerns two.
		page, err := f.app.ReadEvents(f.ctx, before.Last, 1000, []string{"stock.changed"})
		if err != nil {
			t.Fatal(err)
		}
		var causes []any
		for _, e := range page.Events {
			var data struct {
				Cause struct {
					Type    string `json:"type"`
					OrderID any    `json:"orderId"`
				} `json:"cause"`
			}
			if err := json.Unmarshal(e.Data, &data); err != nil {
				t.Fatal(err)
			}
			if data.Cause.Type != "orders/ship" {
				t.Errorf("cause %q", data.Cause.Type)
			}
			causes = append(causes, data.Cause.OrderID)
		}
		if len(causes) != 2 || causes[0] != float64(first.ID()) || causes[1] != nil {
			t.Errorf("stock.changed causes' orders %v, want [%d <nil>]", causes, first.ID())
		}
		requireKeptFigures(t, f.env)
	})
}

// holdingApp is a second service on a fixture's database whose first
// transaction that records events waits before its commit until released,
// and which counts those transactions.
type holdingApp struct {
	*application.App
	transactions     atomic.Int32
	entered, release chan struct{}
}

func newHoldingApp(t *testing.T, f *ordFixture) *holdingApp {
	h := &holdingApp{entered: make(chan struct{}), release: make(chan struct{})}
	var armed atomic.Bool
	h.App = application.New(f.env.DB, utcNow{}, apitest.Secrets(t), application.WithAfterRecordingEvents(func(context.Context) {
		if armed.Load() && h.transactions.Add(1) == 1 {
			close(h.entered)
			<-h.release
		}
	}))
	armed.Store(true)
	return h
}

// run makes n calls: the first until its transaction waits, then each of
// the others once the one before it queues behind the first (waiting
// tells how many queue), so that they queue in the order of calls; then
// it releases the first and waits for them all.
func (h *holdingApp) run(t *testing.T, n int, waiting func() int, call func(i int)) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			call(i)
		}()
		if i == 0 {
			<-h.entered
			continue
		}
		awaitCondition(t, "the call queues behind the first", func() bool { return waiting() == i })
	}
	close(h.release)
	wg.Wait()
}

type utcNow struct{}

func (utcNow) Now() time.Time { return time.Now().UTC() }

// awaitCondition polls cond until it holds, and fails the test (without
// stopping it, so that the caller can release what it holds) when it does
// not within 10 s.
func awaitCondition(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Errorf("timed out waiting until %s", what)
			return
		}
		time.Sleep(time.Millisecond)
	}
}
