// Package warehouse holds the Warehouse and BinLocation aggregates: where
// stock can be, and the rules for creating, changing and deleting those places.
package warehouse

import (
	"strings"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/email"
	"github.com/shopstock/inventory/domain/errs"
)

// Details are the fields of a warehouse a client may set.
type Details struct {
	Code                  string
	Name                  string
	StockAvailableForSale bool
	Contact               string
	Email                 string
	Phone                 string
	Address               string
	Comment               string
	BinLocationFormat     []FormatComponent
}

// Patch carries the fields of a partial update; nil means "leave as it is".
type Patch struct {
	Code                  *string
	Name                  *string
	StockAvailableForSale *bool
	Contact               *string
	Email                 *string
	Phone                 *string
	Address               *string
	Comment               *string
	BinLocationFormat     *[]FormatComponent
}

// Warehouse is a place that holds bin locations and, through them, stock.
type Warehouse struct {
	id                int64
	details           Details
	isDefault         bool
	isDefaultReturn   bool
	nullBinLocationID int64
	// loadedForSale is StockAvailableForSale as storage loaded it, or as
	// the warehouse was made.
	loadedForSale bool
}

// UnmarshalFromDatabase rebuilds a stored warehouse; only adapters call it.
func UnmarshalFromDatabase(id int64, d Details, isDefault, isDefaultReturn bool, nullBinLocationID int64) *Warehouse {
	return &Warehouse{id: id, details: d, isDefault: isDefault, isDefaultReturn: isDefaultReturn, nullBinLocationID: nullBinLocationID,
		loadedForSale: d.StockAvailableForSale}
}

// ForSaleChanged tells whether StockAvailableForSale changed since storage
// loaded the warehouse (or it was made): then the figures of every product
// it holds change.
func (w *Warehouse) ForSaleChanged() bool {
	return w.loadedForSale != w.details.StockAvailableForSale
}

func normalize(d Details) (Details, error) {
	var fields []errs.FieldError
	fail := func(property string, err error) {
		if err != nil {
			fields = append(fields, errs.FieldError{Property: property, Message: err.Error()})
		}
	}
	text := func(property, value string, max int) string {
		value = strings.TrimSpace(value)
		fail(property, code.CheckText(value, max))
		return value
	}
	var err error
	d.Code, err = code.Parse(d.Code)
	fail("code", err)
	d.Name, err = code.ParseName(d.Name)
	fail("name", err)
	d.Contact = text("contact", d.Contact, code.MaxText)
	d.Phone = text("phone", d.Phone, code.MaxText)
	d.Address = multiline("address", d.Address, fail)
	d.Comment = multiline("comment", d.Comment, fail)
	if d.Email = strings.TrimSpace(d.Email); d.Email != "" {
		d.Email, err = email.Parse(d.Email)
		fail("email", err)
	}
	if d.BinLocationFormat == nil {
		d.BinLocationFormat = []FormatComponent{}
	}
	for i, c := range d.BinLocationFormat {
		if err := c.validate(); err != nil {
			fields = append(fields, errs.FieldError{Property: "binLocationFormatComponents[" + itoa(i) + "]", Message: err.Error()})
		}
	}
	if len(fields) == 0 {
		if fe := checkFormat(d.BinLocationFormat); fe != nil {
			fields = append(fields, *fe)
		}
	}
	if len(fields) > 0 {
		return d, errs.InvalidFields(fields...)
	}
	return d, nil
}

// multiline is a long free text in which tab, line feed and carriage return
// are allowed, but no other control character.
func multiline(property, value string, fail func(string, error)) string {
	value = strings.TrimSpace(value)
	fail(property, code.CheckMultiline(value, code.MaxLongText))
	return value
}

// Apply changes the fields p names, all or nothing.
func (w *Warehouse) Apply(p Patch) error {
	d := w.details
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&d.Code, p.Code)
	set(&d.Name, p.Name)
	set(&d.Contact, p.Contact)
	set(&d.Email, p.Email)
	set(&d.Phone, p.Phone)
	set(&d.Address, p.Address)
	set(&d.Comment, p.Comment)
	if p.StockAvailableForSale != nil {
		d.StockAvailableForSale = *p.StockAvailableForSale
	}
	if p.BinLocationFormat != nil {
		d.BinLocationFormat = *p.BinLocationFormat
	}
	d, err := normalize(d)
	if err != nil {
		return err
	}
	w.details = d
	return nil
}

// ErrDefaultNotDeletable and its siblings are the reasons a warehouse stays.
var (
	ErrDefaultNotDeletable       = errs.Invalidf("the default warehouse cannot be deleted").Breaks("default_warehouse_not_deletable")
	ErrDefaultReturnNotDeletable = errs.Invalidf("the default return shipment warehouse cannot be deleted").Breaks("default_return_warehouse_not_deletable")
	ErrHasBinLocations           = errs.Invalidf("the warehouse still has bin locations").Breaks("warehouse_has_bin_locations")
	ErrHasStock                  = errs.Invalidf("the warehouse still has stock").Breaks("warehouse_has_stock")
)

// CheckDeletable tells whether the warehouse may go, given what it holds.
func (w *Warehouse) CheckDeletable(hasBinLocations, hasStock bool) error {
	switch {
	case w.isDefault:
		return ErrDefaultNotDeletable
	case w.isDefaultReturn:
		return ErrDefaultReturnNotDeletable
	case hasBinLocations:
		return ErrHasBinLocations
	case hasStock:
		return ErrHasStock
	}
	return nil
}

// Assign records the ids storage gave the warehouse and its unknown bin
// location, which now belongs to it.
func (w *Warehouse) Assign(id int64, unknown *BinLocation) {
	w.id, w.nullBinLocationID = id, unknown.id
	unknown.warehouseID = id
}

func (w *Warehouse) ID() int64                { return w.id }
func (w *Warehouse) Details() Details         { return w.details }
func (w *Warehouse) Code() string             { return w.details.Code }
func (w *Warehouse) Name() string             { return w.details.Name }
func (w *Warehouse) IsDefault() bool          { return w.isDefault }
func (w *Warehouse) IsDefaultReturn() bool    { return w.isDefaultReturn }
func (w *Warehouse) NullBinLocationID() int64 { return w.nullBinLocationID }
func (w *Warehouse) StockAvailableForSale() bool {
	return w.details.StockAvailableForSale
}
