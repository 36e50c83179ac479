package stock

import "testing"

func TestAvailableStockIsStockForSaleLessWhatOrdersStillHaveToShip(t *testing.T) {
	f := FiguresOf([]WarehouseStock{
		{WarehouseID: 1, StockAvailableForSale: true, Stock: 10, ReservedStock: 2},
		{WarehouseID: 2, StockAvailableForSale: false, Stock: 5, ReservedStock: 1},
	}, 4)
	eq(t, "physical", f.PhysicalStock, 15)
	eq(t, "for sale", f.PhysicalStockForSale, 10)
	eq(t, "reserved", f.ReservedStock, 3)
	eq(t, "available", f.AvailableStock, 6)
}

func TestAvailableStockMayGoNegativeWhenOrdersOutrunStock(t *testing.T) {
	eq(t, "available", FiguresOf(nil, 3).AvailableStock, -3)
}

func TestExpiredPiecesAreNotForSale(t *testing.T) {
	f := FiguresOf([]WarehouseStock{
		{WarehouseID: 1, StockAvailableForSale: true, Stock: 10, ReservedStock: 2, Expired: 3},
		{WarehouseID: 2, StockAvailableForSale: false, Stock: 5, Expired: 4},
	}, 4)
	eq(t, "physical: expired pieces still lie there", f.PhysicalStock, 15)
	eq(t, "expired: all warehouses, for sale or not", f.ExpiredStock, 7)
	eq(t, "for sale: the expired pieces of a warehouse for sale left out", f.PhysicalStockForSale, 7)
	eq(t, "reserved", f.ReservedStock, 2)
	eq(t, "available: stock for sale, without the expired, less the demand", f.AvailableStock, 3)
}

func TestAProductWithoutExpiredPiecesHasTheFiguresItHadBeforeLots(t *testing.T) {
	ws := []WarehouseStock{{WarehouseID: 1, StockAvailableForSale: true, Stock: 10, ReservedStock: 2}}
	f := FiguresOf(ws, 1)
	eq(t, "expired", f.ExpiredStock, 0)
	eq(t, "for sale", f.PhysicalStockForSale, 10)
	eq(t, "available", f.AvailableStock, 9)
}
