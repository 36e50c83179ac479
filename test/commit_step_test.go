package test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// A use case written with no event code at all — it loads, lets the
// domain decide and saves, through the unit of work every use case writes
// through — still records the right stock.changed and stock.low, keeps
// the figures that reads and lists show, and names its cause: the
// aggregates hand out what changed and the commit step writes what
// follows, whatever the use case.
func TestAUseCaseWithoutEventCodeRecordsItsEventsAndFigures(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		created(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "WH1", "name": "Main"}))
		created(t, env.Do(t, "POST", "/api/articleDetails", map[string]any{"id": 7, "number": "SW7", "name": "Mug", "reorderPoint": 5}))
		ohBatch(t, env.Do(t, "PUT", "/api/stock/change/in-1", []any{
			map[string]any{"articleDetailId": 7, "quantity": 8, "warehouse": map[string]any{"code": "WH1"}}}))
		_, last := evSince(t, env, 0)
		uow := application.Committing(env.DB, commitClock{})
		ctx := context.Background()

		// A write-off of 4 pieces: stock only.
		writeOff := stock.Change{ArticleDetailID: 7, At: stock.LocationSpec{Warehouse: &stock.WarehouseSpec{Code: "WH1"}}, Quantity: -4}
		err := uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
			ws, err := s.Stock().Load(ctx, stock.ScopeOf(writeOff), commitClock{}.Now())
			if err != nil {
				return err
			}
			if err := ws.Apply(writeOff, stock.Reference{User: "test"}); err != nil {
				return err
			}
			return s.Stock().Save(ctx, ws)
		})
		if err != nil {
			t.Fatal(err)
		}
		events, _ := evSince(t, env, last)
		changed := eventOf(t, events, "stock.changed")
		if changed.Data["physicalStock"] != float64(4) || changed.Data["availableStock"] != float64(4) {
			t.Fatalf("stock.changed after the write-off: %v", changed.Data)
		}
		if cause := changed.Data["cause"].(map[string]any); cause["type"] != "orders/update" || cause["orderId"] != nil {
			t.Fatalf("cause of a use case that named none and saved no order: %v", cause)
		}
		if low := eventOf(t, events, "stock.low"); low.Data["availableStock"] != float64(4) {
			t.Fatalf("stock.low: %v", low.Data)
		}
		if got := env.Do(t, "GET", "/api/articleDetails/7", nil).JSON(t)["data"].(map[string]any); got["physicalStock"] != float64(4) {
			t.Fatalf("the figures after the write-off: %v", got)
		}
		below := env.Do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.belowReorderPoint&filter[0][value]=1", nil).JSON(t)
		if below["total"] != float64(1) {
			t.Fatalf("the list of products below their reorder point: %v", below)
		}

		// An order pushed in by a use case of its own: its demand.
		_, last = evSince(t, env, 0)
		err = uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
			o, err := order.New(order.NewOrder{Number: "W-1", Details: []order.NewDetail{{ArticleDetailID: 7, Quantity: 3}}})
			if err != nil {
				return err
			}
			return s.Orders().Add(ctx, o)
		})
		if err != nil {
			t.Fatal(err)
		}
		events, _ = evSince(t, env, last)
		changed = eventOf(t, events, "stock.changed")
		if changed.Data["availableStock"] != float64(1) || changed.Data["physicalStock"] != float64(4) {
			t.Fatalf("stock.changed after the order: %v", changed.Data)
		}
		if cause := changed.Data["cause"].(map[string]any); cause["type"] != "orders/create" || cause["orderId"] == nil {
			t.Fatalf("cause of an order created: %v", cause)
		}
		requireKeptFigures(t, env)
	})
}

type commitClock struct{}

func (commitClock) Now() time.Time { return time.Now().UTC() }

func eventOf(t *testing.T, events []feedEvent, typ string) feedEvent {
	t.Helper()
	var found []feedEvent
	for _, e := range events {
		if e.Type == typ {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s events in %v, want 1", len(found), typ, events)
	}
	return found[0]
}

func created(t *testing.T, r *apitest.Response) {
	t.Helper()
	if r.Status != http.StatusCreated {
		t.Fatalf("%s, want 201", r)
	}
}
