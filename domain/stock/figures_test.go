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
