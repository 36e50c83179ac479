package test

import (
	"context"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// The transfer repository's contract, on both databases: lines keep their
// order, lot and fields; Save writes the status and every line's lot
// records (new lots added, known ones updated in place); shipments and
// receipts read back under their own kind and transfer only; the kept
// inTransitStock is what was given; list filters and taken ids and
// numbers.
func TestTransferRepositoryContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		place := newStockPlace(t, db) // articles 1 and 2, WH1 and WH2
		var tr *transfer.Transfer
		write(t, db, func(ctx context.Context, s ports.Store) error {
			var err error
			tr, err = transfer.New(transfer.NewTransfer{Number: "T-1", SourceWarehouseID: place.wh1, DestinationWarehouseID: place.wh2,
				Lines: []transfer.NewLine{{ArticleDetailID: 1, Quantity: 5}, {ID: 700, ArticleDetailID: 2, Quantity: 3, Lot: "L-9"}}}, contractNow)
			if err != nil {
				return err
			}
			return s.Transfers().Add(ctx, tr)
		})
		get := func(id int64) *transfer.Transfer {
			t.Helper()
			var got *transfer.Transfer
			if err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				got, err = s.Transfers().Get(ctx, id)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return got
		}

		t.Run("add assigns ids and keeps the lines as given", func(t *testing.T) {
			got := get(tr.ID())
			lines := got.Lines()
			if got.Number() != "T-1" || got.Status() != transfer.Open || got.SourceWarehouseID() != place.wh1 || !got.CreatedAt().Equal(contractNow) ||
				len(lines) != 2 || lines[0].ID() == 0 || lines[1].ID() != 700 || lines[1].Lot() != "L-9" || lines[0].Lot() != "" || lines[0].Quantity() != 5 {
				t.Fatalf("read back %+v", got)
			}
		})

		t.Run("a taken id, number or line id is refused with the domain's message", func(t *testing.T) {
			for _, p := range []transfer.NewTransfer{
				{Number: "T-1", SourceWarehouseID: place.wh1, DestinationWarehouseID: place.wh2, Lines: []transfer.NewLine{{ArticleDetailID: 1, Quantity: 1}}},
				{ID: tr.ID(), Number: "T-2", SourceWarehouseID: place.wh1, DestinationWarehouseID: place.wh2, Lines: []transfer.NewLine{{ArticleDetailID: 1, Quantity: 1}}},
			} {
				other, err := transfer.New(p, contractNow)
				if err != nil {
					t.Fatal(err)
				}
				err = db.Write(context.Background(), func(ctx context.Context, s ports.Store) error { return s.Transfers().Add(ctx, other) })
				if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || len(e.Fields) != 1 || (e.Fields[0].Property != "number" && e.Fields[0].Property != "id") {
					t.Errorf("%+v: %v", p, err)
				}
			}
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
				// The line without an id got the next after the one given.
				taken, err := s.Transfers().LineIDsTaken(ctx, []int64{702, 701, 700})
				if err == nil && !reflect.DeepEqual(taken, []int64{700, 701}) {
					t.Errorf("line ids taken %v", taken)
				}
				named, err2 := s.Transfers().NamesArticle(ctx, 2)
				if err2 == nil && !named {
					t.Error("article 2 is named by a line")
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})

		t.Run("save writes the status and the lots, and the books read back", func(t *testing.T) {
			ship := &transfer.Shipping{Transfer: get(tr.ID()), Lines: []transfer.ShipmentLine{{LineID: tr.Lines()[0].ID(), Quantity: 2}}, Now: contractNow, User: "dock"}
			// Stock to ship: 4 of article 1 on A-01.
			runOps(t, db, stock.Reference{}, stock.Change{ArticleDetailID: 1, At: stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: place.a}}, Quantity: 4})
			write(t, db, func(ctx context.Context, s ports.Store) error {
				t0, err := s.Transfers().Get(ctx, tr.ID())
				if err != nil {
					return err
				}
				ship.Transfer = t0
				ws, err := s.Stock().Load(ctx, stock.ScopeOf(ship), contractNow)
				if err != nil {
					return err
				}
				if err := ws.Apply(ship, stock.Reference{User: "dock"}); err != nil {
					return err
				}
				if err := s.Stock().Save(ctx, ws); err != nil {
					return err
				}
				if err := s.Transfers().Save(ctx, t0); err != nil {
					return err
				}
				return s.Transfers().AddMovement(ctx, ports.TransferShipment, ship.Result)
			})
			// A second save of the same lot updates it in place.
			write(t, db, func(ctx context.Context, s ports.Store) error {
				t1, err := s.Transfers().Get(ctx, tr.ID())
				if err != nil {
					return err
				}
				rcv := &transfer.Receiving{Transfer: t1, Lines: []transfer.ReceiptLine{{LineID: tr.Lines()[0].ID(), Quantity: 1}}, Now: contractNow}
				ws, err := s.Stock().Load(ctx, stock.ScopeOf(rcv), contractNow)
				if err != nil {
					return err
				}
				if err := ws.Apply(rcv, stock.Reference{}); err != nil {
					return err
				}
				if err := s.Stock().Save(ctx, ws); err != nil {
					return err
				}
				return s.Transfers().Save(ctx, t1)
			})
			got := get(tr.ID())
			l := got.Lines()[0]
			if got.Status() != transfer.PartiallyReceived || !reflect.DeepEqual(l.Lots(), []transfer.LotRecord{{Shipped: 2, Received: 1}}) || l.InTransit() != 1 {
				t.Fatalf("status %s, lots %+v", got.Status(), l.Lots())
			}
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
				m, err := s.Transfers().Movement(ctx, ports.TransferShipment, tr.ID(), ship.Result.ID)
				if err != nil {
					return err
				}
				if m.User != "dock" || len(m.Lines) != 1 || m.Lines[0].BinLocationID != place.a || m.Lines[0].Quantity != 2 || m.Lines[0].LotNumber != "" {
					t.Errorf("shipment %+v", m)
				}
				for _, miss := range []struct {
					kind           ports.TransferMovementKind
					transfer, move int64
				}{{ports.TransferReceipt, tr.ID(), ship.Result.ID}, {ports.TransferShipment, tr.ID() + 1, ship.Result.ID}} {
					if _, err := s.Transfers().Movement(ctx, miss.kind, miss.transfer, miss.move); errs.KindOf(err) != errs.NotFound {
						t.Errorf("%v: %v", miss, err)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})

		t.Run("the kept inTransitStock is what was given", func(t *testing.T) {
			write(t, db, func(ctx context.Context, s ports.Store) error {
				if err := s.Transfers().KeepInTransit(ctx, map[int64]int{1: 3, 2: 4}); err != nil {
					return err
				}
				return s.Transfers().KeepInTransit(ctx, map[int64]int{2: 0})
			})
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
				in, err := s.Transfers().InTransitOf(ctx, []int64{1, 2})
				if err == nil && !reflect.DeepEqual(in, map[int64]int{1: 3}) {
					t.Errorf("in transit %v", in)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			err = db.Write(context.Background(), func(ctx context.Context, s ports.Store) error {
				return s.Transfers().KeepInTransit(ctx, map[int64]int{2: -1})
			})
			if err == nil {
				t.Error("a negative inTransitStock was kept")
			}
		})

		t.Run("lists filter on status and warehouses", func(t *testing.T) {
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
				for _, c := range []struct {
					f    ports.Filter
					want int
				}{
					{ports.Filter{Property: "transfer.status", Expression: ports.ExprEqual, Values: []any{"Partially received"}}, 1},
					{ports.Filter{Property: "transfer.status", Expression: ports.ExprEqual, Values: []any{"Open"}}, 0},
					{ports.Filter{Property: "transfer.sourceWarehouseId", Expression: ports.ExprEqual, Values: []any{place.wh1}}, 1},
					{ports.Filter{Property: "transfer.destinationWarehouseId", Expression: ports.ExprEqual, Values: []any{place.wh1}}, 0},
					{ports.Filter{Property: "transfer.number", Expression: ports.ExprLike, Values: []any{"t-%"}}, 1},
				} {
					p, err := s.Transfers().List(ctx, ports.ListQuery{Limit: 10, Filters: []ports.Filter{c.f}})
					if err != nil {
						return err
					}
					if p.Total != c.want || len(p.Items) != c.want {
						t.Errorf("%+v: %d, want %d", c.f, p.Total, c.want)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	})
}
