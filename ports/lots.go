package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/stock"
)

// LotView is a lot as reads show it: the lot with its stock, reserved
// pieces and the locations where it has either.
type LotView struct {
	ID            int64
	Lot           stock.Lot
	Stock         int
	ReservedStock int
	// Locations where the lot has stock or reservations, by warehouse id,
	// then bin location code.
	Locations []LotLocation
}

// LotLocation is what a lot holds on one bin location.
type LotLocation struct {
	WarehouseID     int64
	BinLocationID   int64
	BinLocationCode string
	Stock           int
	ReservedStock   int
}

// MappingLot is what one lot holds on a mapping, as reads show it.
type MappingLot struct {
	Number        string
	BestBefore    *time.Time
	Stock         int
	ReservedStock int
}

// LotRepository reads lots; they are written with the stock (StockRepository.Save).
type LotRepository interface {
	// Get is the lot of id (errs.NotFound when there is none).
	Get(ctx context.Context, id int64) (LotView, error)
	// List lists lots by the list rules; lot.expired is whether the lot's
	// expiry is counted (stock.Lot.ExpiryCounted), as the figures count it.
	List(ctx context.Context, q ListQuery) (Page[LotView], error)
	// Numbered finds the lots whose number is exactly number, of any
	// article detail (the console's search).
	Numbered(ctx context.Context, number string) ([]LotView, error)
}
