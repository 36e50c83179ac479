package stock

// WarehouseStock is an article detail's stock in one warehouse.
type WarehouseStock struct {
	WarehouseID           int64
	WarehouseCode         string
	StockAvailableForSale bool
	Stock                 int
	ReservedStock         int
	// Expired is what of Stock belongs to expired lots.
	Expired int
	// Mappings counts the article detail's mappings in the warehouse (see
	// WarehouseTotal).
	Mappings int
}

// Figures are the stock figures of one article detail, as shops read them.
type Figures struct {
	PhysicalStock int
	// PhysicalStockForSale counts warehouses whose stock is available for sale.
	PhysicalStockForSale int
	ReservedStock        int
	// AvailableStock is what a shop may still sell: the stock for sale less
	// what orders still have to ship.
	AvailableStock int
	Warehouses     []WarehouseStock
	// IncomingStock is what open purchase orders still bring (the sum of
	// purchase.Order.Incoming over them); it is no part of AvailableStock.
	IncomingStock int
	// ExpiredStock is what lies in lots that are expired, in all
	// warehouses. Expired pieces are not for sale: PhysicalStockForSale and
	// AvailableStock leave them out.
	ExpiredStock int
	// InTransitStock is what is on the road between two warehouses (the
	// sum of transfer.Transfer.InTransit over all transfers): in no
	// warehouse, so no part of PhysicalStock or AvailableStock.
	InTransitStock int
}

// FiguresOf computes the figures from the stock per warehouse and what the
// article detail's order positions still have to ship (the sum of
// order.Order.Outstanding over them).
func FiguresOf(warehouses []WarehouseStock, outstanding int) Figures {
	f := Figures{Warehouses: warehouses}
	for _, w := range warehouses {
		f.PhysicalStock += w.Stock
		f.ReservedStock += w.ReservedStock
		f.ExpiredStock += w.Expired
		if w.StockAvailableForSale {
			f.PhysicalStockForSale += w.Stock - w.Expired
		}
	}
	f.AvailableStock = f.PhysicalStockForSale - outstanding
	return f
}
