package console

import (
	"context"
	"fmt"
	"strconv"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// The engine's messages are written for API clients ("insufficient stock of
// article detail 6 at bin location 3: requested 5, available 2"). A worker
// knows products by number and bins by code, so the console tells a
// failure from its rule (Code) and the ids it concerns (Subject), and reads
// the figures it names from storage itself; the message is the last resort
// for a rule it does not know.

// binName is how the console names a bin location: the unknown bin
// location, where stock without a bin lies, by what it means.
func binName(code string) string {
	if code == warehouse.NullBinLocationCode {
		return "unassigned"
	}
	return code
}

// failure is what the console knows of a failed operation.
type failure struct {
	Message  string
	Property string
	Code     errs.Code
	Subject  errs.Subject
}

func failureOf(err error) failure {
	e, ok := errs.As(err)
	if !ok {
		return failure{Message: err.Error()}
	}
	return failure{Message: messageOf(err), Property: e.Property, Code: e.Code, Subject: e.Subject}
}

func (r storedResult) failure() failure {
	return failure{Message: r.Message, Property: r.Property, Code: r.Code, Subject: r.Subject}
}

// say tells a failure in the worker's words.
func (h *Handler) say(ctx context.Context, f failure) string {
	s := f.Subject
	switch f.Code {
	case stock.InsufficientStock:
		free, where := h.freeAt(ctx, s)
		return fmt.Sprintf("Not enough stock: %s has %s of %s free to take.", where, pieces(free), h.productNumber(ctx, s.ArticleDetail))
	case stock.BelowReserved:
		_, where := h.freeAt(ctx, s)
		return fmt.Sprintf("Open orders hold %s of %s at %s: the count cannot be lower. Release their picking lists first.",
			pieces(h.reservedAt(ctx, s)), h.productNumber(ctx, s.ArticleDetail), where)
	case stock.StockLimit:
		return fmt.Sprintf("That would put more than %d pieces on one bin location.", stock.MaxStock)
	case stock.QuantityOutOfRange:
		return "Enter a quantity of at least 1."
	case stock.SameLocation:
		return "That is where the goods are now: scan another bin location."
	case stock.UnknownBinLocation:
		return "There is no such bin location in this warehouse."
	case stock.LocationMismatch:
		return "This bin location belongs to another warehouse."
	case stock.UnknownWarehouse:
		return "Choose a warehouse."
	case stock.LocationMissing:
		return "Scan or type a bin location."
	case stock.UnknownArticleDetail:
		return "There is no such product."
	case stock.NullBinLocationNotDefault:
		return "Unassigned stock cannot be a default bin location: scan a bin."
	case stock.LotRequired:
		return "This product is lot-tracked: enter or scan the lot number."
	case stock.LotNotTracked:
		return "This product is not lot-tracked: leave the lot empty."
	case stock.InvalidLot:
		return "Enter a lot number of 1 to 64 characters, without control characters."
	case stock.LotBestBeforeMismatch, stock.LotExpired:
		// The message names the lot and its date, which the worker needs.
		return f.Message
	case order.ExceedsOutstanding:
		return "That is more than this position still has to ship."
	case order.CancelledOrder:
		return "This order is cancelled."
	case order.CancelledDetail:
		return "This position is cancelled."
	case order.UnknownDetail:
		return "This order has no such position."
	case order.NoDefaultWarehouse:
		return "Choose the warehouse to ship from."
	case order.NoReturnWarehouse:
		return "Choose the warehouse the pieces go back to."
	}
	return f.Message
}

func pieces(n int) string {
	if n == 1 {
		return "1 piece"
	}
	return strconv.Itoa(n) + " pieces"
}

// productNumber is the number of a product, or a neutral word when it
// cannot be read.
func (h *Handler) productNumber(ctx context.Context, id int64) string {
	if id > 0 {
		if v, err := h.app.ArticleDetail(ctx, id); err == nil {
			return v.Article.Number()
		}
	}
	return "this product"
}

// linesAt are the product's stock lines at the subject's location: its bin,
// or every bin of its warehouse.
func (h *Handler) linesAt(ctx context.Context, s errs.Subject) []ports.StockLine {
	lines, err := h.app.StockLines(ctx, ports.StockLineFilter{ArticleDetailID: s.ArticleDetail})
	if err != nil || s.ArticleDetail == 0 {
		return nil
	}
	var out []ports.StockLine
	for _, l := range lines {
		if (s.BinLocation != 0 && l.BinLocationID == s.BinLocation) || (s.BinLocation == 0 && l.WarehouseID == s.Warehouse) {
			out = append(out, l)
		}
	}
	return out
}

// freeAt is what of the product may leave the subject's location (stock
// not held by picking lists), and the location's name.
func (h *Handler) freeAt(ctx context.Context, s errs.Subject) (int, string) {
	free := 0
	for _, l := range h.linesAt(ctx, s) {
		free += l.Movable()
	}
	return free, h.placeName(ctx, s)
}

func (h *Handler) reservedAt(ctx context.Context, s errs.Subject) int {
	n := 0
	for _, l := range h.linesAt(ctx, s) {
		n += l.ReservedStock
	}
	return n
}

// placeName names the subject's location as the pages do: bin location
// code, or warehouse code.
func (h *Handler) placeName(ctx context.Context, s errs.Subject) string {
	if s.BinLocation != 0 {
		if v, err := h.app.BinLocation(ctx, s.BinLocation); err == nil {
			if v.BinLocation.Code() == warehouse.NullBinLocationCode {
				return "unassigned stock"
			}
			return "bin " + v.BinLocation.Code()
		}
	}
	if s.Warehouse != 0 {
		if wh, err := h.app.Warehouse(ctx, s.Warehouse); err == nil {
			return "warehouse " + wh.Code()
		}
	}
	return "this location"
}
