package console

import (
	"context"
	"fmt"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// What lands in a quantity box is read before it is booked: a scanner
// types a code and Enter into whatever field has the focus, and an
// 8-digit barcode is a fine number. stock.ReadEntry tells a plausible
// quantity from what may be a code; the scan resolver tells what such a
// code names.

// scanInto names the fields of a form that take a code that landed in its
// quantity box: a bin location's code goes to bin, a product's number or
// barcode to product ("" where the form has no such field).
type scanInto struct {
	bin, product string
}

// entry reads the quantity box field of f for a place that holds (or a
// line that expects) held pieces, and tells whether it holds a quantity
// to book. A code that landed there is taken as the scan it is: moved to
// the field of the form that takes it, or named beside the box, which is
// emptied for the quantity. A number far beyond what is plausible is
// booked only when the form's confirm button, tapped, sent that very
// number; else the form asks (f.Asks), and Enter, which sends the form's
// first button, asks again.
func (h *Handler) entry(ctx context.Context, f *form, field string, held int, into scanInto) (bool, error) {
	raw := f.Val(field)
	if raw == "" {
		return true, nil
	}
	n, number, kind := stock.ReadEntry(raw, held)
	if kind == stock.EntryQuantity {
		return true, nil
	}
	t, err := h.app.ResolveScan(ctx, raw)
	if err != nil {
		return false, err
	}
	if said := h.takeScan(f, field, t, into); said != "" {
		f.Values[field] = ""
		f.fail(field, said)
		return false, nil
	}
	if !number || n > stock.MaxQuantity || stock.PlausibleQuantity(int(n), held) || f.Val("confirm") == raw {
		// No quantity, or one out of range, is told by form.quantity.
		return true, nil
	}
	f.Asks = field
	f.fail(field, fmt.Sprintf("%s is far more than plausible here (%s). Check the number; tap “Yes, %s” only if it is right.", raw, heldWords(held), raw))
	return false, nil
}

// takeScan puts what a scan names where the form takes it and says so;
// "" when the scan names nothing.
func (h *Handler) takeScan(f *form, field string, t application.ScanTarget, into scanInto) string {
	raw := f.Val(field)
	switch t.Kind {
	case application.ScanBinLocations:
		code := t.Bins[0].Code
		if into.bin != "" {
			f.Values[into.bin] = code
			return fmt.Sprintf("%s is a bin location: it is in the bin field now. Enter the quantity.", code)
		}
		return fmt.Sprintf("%s is bin location %s, not a quantity. Enter the quantity.", raw, code)
	case application.ScanProduct, application.ScanGoods, application.ScanLot:
		what := "the barcode of " + t.Product.Code
		if t.Kind == application.ScanLot {
			what = fmt.Sprintf("lot %s of %s", t.Lot.Code, t.Lot.ParentCode)
		}
		if t.Kind == application.ScanProduct && !t.Product.ByEAN {
			what = "the product number of " + t.Product.Code
		}
		if into.product != "" && t.Kind != application.ScanLot {
			f.Values[into.product] = raw
			return fmt.Sprintf("%s is %s: it is in the product field now. Enter the quantity.", raw, what)
		}
		return fmt.Sprintf("%s is %s, not a quantity. Enter the quantity.", raw, what)
	case application.ScanOrder:
		return fmt.Sprintf("%s is order %s, not a quantity. Enter the quantity.", raw, t.Order.Code)
	case application.ScanPurchaseOrder:
		return fmt.Sprintf("%s is purchase order %s, not a quantity. Enter the quantity.", raw, t.PurchaseOrder.Code)
	case application.ScanMalformed:
		return t.Problem + " Enter the quantity."
	case application.ScanSeveral:
		return fmt.Sprintf("%s is a code, not a quantity. Enter the quantity.", raw)
	}
	return ""
}

// heldWords names what a plausible quantity is measured against.
func heldWords(held int) string {
	if held == 0 {
		return "none in stock"
	}
	return pieces(held) + " in stock"
}

// held is what of a product lies on a bin (bin > 0), or in all its
// warehouses: what a quantity for it is measured against.
func (h *Handler) held(ctx context.Context, article, bin int64) (int, error) {
	lines, err := h.app.StockLines(ctx, ports.StockLineFilter{ArticleDetailID: article})
	n := 0
	for _, l := range lines {
		if bin == 0 || l.BinLocationID == bin {
			n += l.Stock
		}
	}
	return n, err
}
