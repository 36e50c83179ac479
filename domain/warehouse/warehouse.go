// Package warehouse holds the Warehouse and BinLocation aggregates: where
// stock can be, and the rules for creating, changing and deleting those places.
package warehouse

import (
	"net/mail"
	"strings"
	"unicode/utf8"

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
}

const maxShortText = 255
const maxLongText = 65535

// New validates d and returns a warehouse that is not yet stored.
func New(d Details) (*Warehouse, error) {
	d, err := normalize(d)
	if err != nil {
		return nil, err
	}
	return &Warehouse{details: d}, nil
}

// UnmarshalFromDatabase rebuilds a stored warehouse; only adapters call it.
func UnmarshalFromDatabase(id int64, d Details, isDefault, isDefaultReturn bool, nullBinLocationID int64) *Warehouse {
	return &Warehouse{id: id, details: d, isDefault: isDefault, isDefaultReturn: isDefaultReturn, nullBinLocationID: nullBinLocationID}
}

func normalize(d Details) (Details, error) {
	var fields []errs.FieldError
	check := func(property, value string, required bool, max int) string {
		value = strings.TrimSpace(value)
		switch {
		case required && value == "":
			fields = append(fields, errs.FieldError{Property: property, Message: "must not be empty"})
		case utf8.RuneCountInString(value) > max:
			fields = append(fields, errs.FieldError{Property: property, Message: "must be at most " + itoa(max) + " characters"})
		}
		return value
	}
	d.Code = check("code", d.Code, true, maxShortText)
	d.Name = check("name", d.Name, true, maxShortText)
	d.Contact = check("contact", d.Contact, false, maxShortText)
	d.Email = check("email", d.Email, false, maxShortText)
	d.Phone = check("phone", d.Phone, false, maxShortText)
	d.Address = check("address", d.Address, false, maxLongText)
	d.Comment = check("comment", d.Comment, false, maxLongText)
	if d.Email != "" && !isEmail(d.Email) {
		fields = append(fields, errs.FieldError{Property: "email", Message: "must be an email address"})
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

func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
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
	ErrDefaultNotDeletable       = errs.Invalidf("the default warehouse cannot be deleted")
	ErrDefaultReturnNotDeletable = errs.Invalidf("the default return shipment warehouse cannot be deleted")
	ErrHasBinLocations           = errs.Invalidf("the warehouse still has bin locations")
	ErrHasStock                  = errs.Invalidf("the warehouse still has stock")
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

// SetDefault and SetDefaultReturn move the flags; the use case clears the
// previous holder in the same transaction so exactly one warehouse holds each.
func (w *Warehouse) SetDefault(v bool)       { w.isDefault = v }
func (w *Warehouse) SetDefaultReturn(v bool) { w.isDefaultReturn = v }

// Assign records the ids storage gave the warehouse and its unknown bin location.
func (w *Warehouse) Assign(id, nullBinLocationID int64) {
	w.id, w.nullBinLocationID = id, nullBinLocationID
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
