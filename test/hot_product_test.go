package test

import (
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// Orders that all want the same product, shipped by several clients at
// once over HTTP: every order ships exactly once, no mapping goes below 0,
// and the pieces shipped, the stock removed and the ledger agree (the same
// check as the hot-product benchmark's, bench.CheckShipped), as do the
// product's kept figures.
func TestHotProductShipping(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := apitest.New(t, databaseURL)
		ctx := apitest.Admin()
		api := bench.API{URL: e.URL, User: apitest.User, Key: apitest.Key}
		w, err := bench.NewHotWarehouse(ctx, api, "HOT", 4)
		if err != nil {
			t.Fatal(err)
		}
		// 30 pieces a bin for 100 orders: the service empties bins as it
		// goes (the lowest stock first), so the last orders take from the
		// last bins.
		round, err := bench.PrepareHotRound(ctx, api, w, bench.HotProduct{Orders: 100, Bins: 4, Stock: 30}, 1)
		if err != nil {
			t.Fatal(err)
		}
		run, err := bench.Concurrently(len(round.Orders), 4, func(i int) error {
			return bench.ShipOrder(ctx, api, round.Orders[i], w.ID)
		})
		if err != nil {
			t.Fatal(err)
		}
		if run.MaxInFlight < 2 {
			t.Errorf("at most %d shipment under way at a time: the clients did not overlap", run.MaxInFlight)
		}
		if err := bench.CheckShipped(ctx, e.DB, round); err != nil {
			t.Error(err)
		}
		requireKeptFigures(t, e)
	})
}
