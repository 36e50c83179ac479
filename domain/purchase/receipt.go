package purchase

import (
	"fmt"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// Receipt records one goods receipt of a purchase order. It is a fact once
// it is stored: nothing changes it afterwards, so its fields are plain.
type Receipt struct {
	ID              int64
	PurchaseOrderID int64
	CreatedAt       time.Time
	User            string
	Lines           []ReceivedLine
}

// ReceivedLine is what one line of a receipt brought and where it went.
type ReceivedLine struct {
	LineID          int64
	ArticleDetailID int64
	Quantity        int
	WarehouseID     int64
	BinLocationID   int64
	// LotNumber is the lot received, "" for a product that is not
	// lot-tracked.
	LotNumber string
}

// Receiving books a receipt: every line or none. Each line's pieces come
// into stock through the stock engine's one stock-in path (the named bin,
// which must lie in the order's warehouse, else the product's default bin
// there, else its unknown bin location), with ledger entries of type
// receipt that name the purchase order. Run leaves the record in Result.
type Receiving struct {
	Order  *Order
	Lines  []ReceiptLine
	Now    time.Time
	User   string
	Result *Receipt
}

// at is where a line's pieces go.
func (r *Receiving) at(l ReceiptLine) stock.LocationSpec {
	if l.At != nil {
		return *l.At
	}
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: r.Order.warehouseID}}
}

func (r *Receiving) Declare(sc *stock.Scope) {
	sc.AddLocation(stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: r.Order.warehouseID}})
	for _, l := range r.Lines {
		if line, ok := r.Order.Line(l.LineID); ok {
			sc.Add(line.articleDetailID, r.at(l))
		}
	}
}

func (r *Receiving) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	o := r.Order
	if err := o.CheckReceipt(r.Lines); err != nil {
		return err
	}
	ref.PurchaseOrderID = o.id
	rec := &Receipt{PurchaseOrderID: o.id, CreatedAt: r.Now, User: r.User}
	for i, rl := range r.Lines {
		l, _ := o.Line(rl.LineID)
		prop := fmt.Sprintf("lines[%d]", i)
		if rl.At != nil {
			if err := rl.At.Validate(""); err != nil {
				return lineError(prop, l.id, err)
			}
		}
		loc, err := ws.Locate(l.articleDetailID, r.at(rl))
		if err != nil {
			return lineError(prop, l.id, err)
		}
		if loc.WarehouseID != o.warehouseID {
			return errs.InvalidFields(errs.FieldError{Property: prop + ".binLocation",
				Message: fmt.Sprintf("line %d: %s does not lie in the purchase order's warehouse", l.id, loc)}).Breaks(WrongWarehouse)
		}
		if loc, err = ws.Receive(l.articleDetailID, loc, rl.Quantity, rl.Lot, ref); err != nil {
			return lineError(prop, l.id, err)
		}
		rec.Lines = append(rec.Lines, ReceivedLine{LineID: l.id, ArticleDetailID: l.articleDetailID, Quantity: rl.Quantity,
			WarehouseID: loc.WarehouseID, BinLocationID: loc.BinLocationID, LotNumber: ws.LotNumber(rl.Lot)})
	}
	o.receive(r.Lines)
	r.Result = rec
	return nil
}

// WrongWarehouse: a receipt line names a bin of another warehouse.
const WrongWarehouse errs.Code = "wrong_warehouse"

// lineError is err of the stock engine as the error of one receipt line:
// its message names the line, its property lies within the line's.
func lineError(prop string, lineID int64, err error) error {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid {
		return err
	}
	c := *e
	c.Message = fmt.Sprintf("line %d: %s", lineID, e.Message)
	c.Fields = nil
	property := prop
	if e.Property != "" {
		property += "." + e.Property
	} else if e.Code == stock.InsufficientStock || e.Code == stock.StockLimit {
		property += ".quantity"
	}
	c.Property = property
	c.Fields = []errs.FieldError{{Property: property, Message: c.Message}}
	return &c
}
