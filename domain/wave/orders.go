package wave

import (
	"fmt"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
)

// PicksOf are an order's reservations in a warehouse as picks of a wave.
// binCode names the bins; item tells a product's number and EAN.
func PicksOf(o *order.Order, warehouseID int64, binCode func(bin int64) string, item func(article int64) (number, ean string)) []Pick {
	var out []Pick
	for _, d := range o.Details() {
		for _, h := range d.Reservations() {
			if h.WarehouseID != warehouseID {
				continue
			}
			number, ean := item(d.ArticleDetailID())
			out = append(out, Pick{
				Item: Item{BinLocationID: h.BinLocationID, BinLocationCode: binCode(h.BinLocationID), ArticleDetailID: d.ArticleDetailID(),
					ArticleNumber: number, EAN: ean, Lot: h.Lot},
				OrderID: o.ID(), OrderDetailID: d.ID(), Quantity: h.Quantity,
			})
		}
	}
	return out
}

// Busy tells whether an order that another wave picks keeps it from a new
// one: while it still has pieces to ship, its reservations are that
// wave's tasks, and two walks must not pick them twice.
func Busy(o *order.Order) bool {
	if o.Status() == order.StatusCancelled {
		return false
	}
	for _, d := range o.Details() {
		if o.Outstanding(d) > 0 {
			return true
		}
	}
	return false
}

// ReadyToShip tells whether every piece the order still has to ship was
// picked in this wave, and if not, why.
func (w *Wave) ReadyToShip(o *order.Order) (bool, string) {
	if o.Status() == order.StatusCancelled {
		return false, fmt.Sprintf("order %s is cancelled", o.Number())
	}
	var missing []string
	outstanding := 0
	for _, d := range o.Details() {
		need := o.Outstanding(d)
		outstanding += need
		if picked := w.PickedFor(d.ID()); picked < need {
			missing = append(missing, fmt.Sprintf("order detail %d: %d of %d pieces picked", d.ID(), picked, need))
		}
	}
	switch {
	case outstanding == 0:
		return false, fmt.Sprintf("order %s is shipped", o.Number())
	case len(missing) > 0:
		return false, "not fully picked: " + strings.Join(missing, "; ")
	}
	return true, ""
}

// ShortfallsOf reads why an order could not be reserved (the error of an
// order.PickingList): one shortfall per position it names, or the error's
// message for the order as a whole.
func ShortfallsOf(o *order.Order, err error) []Shortfall {
	e, ok := errs.As(err)
	if !ok {
		return []Shortfall{{Message: err.Error()}}
	}
	details := o.Details()
	var out []Shortfall
	for _, f := range e.Fields {
		var i int
		if _, scanErr := fmt.Sscanf(f.Property, "details[%d]", &i); scanErr == nil && i >= 0 && i < len(details) {
			out = append(out, Shortfall{OrderDetailID: details[i].ID(), Message: f.Message})
		}
	}
	if len(out) == 0 {
		out = []Shortfall{{Message: e.Message}}
	}
	return out
}
