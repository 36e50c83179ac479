// Package order holds the Order aggregate: an order the shop pushed in, with
// its positions (order details), and the rules for shipping it.
package order

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/email"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// Order is an order with its positions. Its fields stay unexported so that
// every change goes through a method that keeps the shipping rules true.
type Order struct {
	id            int64
	number        string
	status        Status
	customerEmail string
	details       []*Detail
	// loaded is what the order was when storage loaded it; nil for an
	// order that is not stored yet. What changed since is what a saved
	// order hands out (Changes).
	loaded *loadedOrder
}

// Detail is one position of an order: how many pieces of an article detail
// were ordered and how many of them have left the warehouse.
type Detail struct {
	id              int64
	articleDetailID int64
	quantity        int
	shipped         int
	status          DetailStatus
	// returned pieces came back from the customer (never more than shipped).
	returned int
	// reservations hold stock on bins for this position's picking; their sum
	// never exceeds what it still has to ship (Order.Outstanding).
	reservations []stock.Hold
}

// NewOrder is what a client may say about an order it pushes in. Statuses are
// names; an ID of 0 means the storage assigns one.
type NewOrder struct {
	ID            int64
	Number        string
	CustomerEmail string
	Status        string
	Details       []NewDetail
}

// NewDetail is what a client may say about one position. An ID of 0 means the
// storage assigns one.
type NewDetail struct {
	ID              int64
	ArticleDetailID int64
	Quantity        int
	Shipped         int
	Status          string
}

// New validates p and builds the order. All broken rules are reported at once,
// each under its JSON property (number, details[1].quantity, …), so a client
// can fix its request in one round.
func New(p NewOrder) (*Order, error) {
	var bad []errs.FieldError
	fail := func(property, format string, args ...any) {
		bad = append(bad, errs.FieldError{Property: property, Message: fmt.Sprintf(format, args...)})
	}

	if p.ID < 0 {
		fail("id", "must be positive")
	}

	number, err := code.Parse(p.Number)
	if err != nil {
		fail("number", "%s", err)
	}

	// Only a bare address is something the status mail can go to as given.
	customerEmail := strings.TrimSpace(p.CustomerEmail)
	if customerEmail != "" {
		if customerEmail, err = email.Parse(customerEmail); err != nil {
			fail("customerEmail", "%s", err)
		}
	}

	status, err := ParseStatus(p.Status)
	if err != nil {
		fail("status", "%s", err.Error())
	}

	// An order without positions has nothing to ship, reserve or mail about;
	// accepting one would only hide a broken push from the shop.
	if len(p.Details) == 0 {
		fail("details", "must contain at least one order detail")
	}

	details := make([]*Detail, 0, len(p.Details))
	firstWithID := make(map[int64]int, len(p.Details))
	for i, nd := range p.Details {
		prop := func(field string) string { return fmt.Sprintf("details[%d].%s", i, field) }

		switch {
		case nd.ID < 0:
			fail(prop("id"), "must be positive")
		case nd.ID > 0:
			if j, dup := firstWithID[nd.ID]; dup {
				fail(prop("id"), "duplicates details[%d].id %d", j, nd.ID)
			} else {
				firstWithID[nd.ID] = i
			}
		}
		if nd.ArticleDetailID <= 0 {
			fail(prop("articleDetailId"), "must be positive")
		}
		switch {
		case nd.Quantity <= 0:
			fail(prop("quantity"), "must be at least 1")
		case nd.Quantity > stock.MaxQuantity:
			fail(prop("quantity"), "must be at most %d", stock.MaxQuantity)
		}
		switch {
		case nd.Shipped < 0:
			fail(prop("shipped"), "must not be negative")
		case nd.Quantity > 0 && nd.Shipped > nd.Quantity:
			fail(prop("shipped"), "must not exceed the quantity %d", nd.Quantity)
		}
		ds, err := ParseDetailStatus(nd.Status)
		if err != nil {
			fail(prop("status"), "%s", err.Error())
		}

		details = append(details, &Detail{
			id:              nd.ID,
			articleDetailID: nd.ArticleDetailID,
			quantity:        nd.Quantity,
			shipped:         nd.Shipped,
			status:          ds,
		})
	}

	if len(bad) > 0 {
		return nil, errs.InvalidFields(bad...)
	}
	return &Order{
		id:            p.ID,
		number:        number,
		status:        status,
		customerEmail: customerEmail,
		details:       details,
	}, nil
}

// DetailRecord is an order detail row as the storage holds it.
type DetailRecord struct {
	ID              int64
	ArticleDetailID int64
	Quantity        int
	Shipped         int
	Status          string
	Returned        int
	Reservations    []stock.Hold
}

// UnmarshalOrderFromDatabase rebuilds an order from stored rows. Only storage
// adapters call it. Stored rows were validated when they were written, so a
// row that breaks a rule now is corrupt data: an Internal error, not a client
// mistake.
func UnmarshalOrderFromDatabase(id int64, number, address, status string, details []DetailRecord) (*Order, error) {
	p := NewOrder{ID: id, Number: number, CustomerEmail: address, Status: status, Details: make([]NewDetail, len(details))}
	for i, d := range details {
		p.Details[i] = NewDetail{ID: d.ID, ArticleDetailID: d.ArticleDetailID, Quantity: d.Quantity, Shipped: d.Shipped, Status: d.Status}
	}
	o, err := New(p)
	if err == nil {
		err = o.checkIDsAssigned()
	}
	if err == nil {
		err = o.restore(details)
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, fmt.Sprintf("stored order %d is invalid", id))
	}
	o.loaded = &loadedOrder{status: o.status, demand: o.Demand()}
	return o, nil
}

func (o *Order) checkIDsAssigned() error {
	if o.id <= 0 {
		return fmt.Errorf("order id %d is not positive", o.id)
	}
	for i, d := range o.details {
		if d.id <= 0 {
			return fmt.Errorf("details[%d] id %d is not positive", i, d.id)
		}
	}
	return nil
}

// AssignIDs stores the ids the storage generated on insert: orderID for the
// order and detailIDs[i] for Details()[i]. Ids the client already chose must
// come back unchanged, so a storage bug cannot silently renumber an order.
// Misuse is a fault of the service, hence an Internal error.
func (o *Order) AssignIDs(orderID int64, detailIDs []int64) error {
	if orderID <= 0 || (o.id != 0 && orderID != o.id) {
		return errs.E(errs.Internal, "cannot assign id %d to order %q with id %d", orderID, o.number, o.id)
	}
	if len(detailIDs) != len(o.details) {
		return errs.E(errs.Internal, "order %q has %d order details, got %d ids", o.number, len(o.details), len(detailIDs))
	}
	seen := make(map[int64]bool, len(detailIDs))
	for i, id := range detailIDs {
		cur := o.details[i].id
		if id <= 0 || (cur != 0 && id != cur) || seen[id] {
			return errs.E(errs.Internal, "cannot assign id %d to order detail %d (id %d) of order %q", id, i, cur, o.number)
		}
		seen[id] = true
	}
	o.id = orderID
	for i, id := range detailIDs {
		o.details[i].id = id
	}
	return nil
}

// ID is 0 until the storage assigned one.
func (o *Order) ID() int64             { return o.id }
func (o *Order) Number() string        { return o.number }
func (o *Order) Status() Status        { return o.status }
func (o *Order) CustomerEmail() string { return o.customerEmail }

// Details returns the positions in the order they were given. The slice is a
// copy; the positions themselves can only be changed through the order.
func (o *Order) Details() []*Detail {
	out := make([]*Detail, len(o.details))
	copy(out, o.details)
	return out
}

// Detail finds a position by its id.
func (o *Order) Detail(id int64) (*Detail, bool) {
	for _, d := range o.details {
		if d.id == id {
			return d, true
		}
	}
	return nil, false
}

// ID is 0 until the storage assigned one.
func (d *Detail) ID() int64              { return d.id }
func (d *Detail) ArticleDetailID() int64 { return d.articleDetailID }
func (d *Detail) Quantity() int          { return d.quantity }
func (d *Detail) Shipped() int           { return d.shipped }
func (d *Detail) Status() DetailStatus   { return d.status }
func (d *Detail) Returned() int          { return d.returned }

// Reservations are the position's holds on bins, a copy.
func (d *Detail) Reservations() []stock.Hold { return slices.Clone(d.reservations) }

// Reserved is how many pieces the position holds for picking.
func (d *Detail) Reserved() int {
	n := 0
	for _, h := range d.reservations {
		n += h.Quantity
	}
	return n
}

// Remaining is what is still to ship of this position.
func (d *Detail) Remaining() int { return d.quantity - d.shipped }

// Returnable is what may still come back of the position: what was
// shipped and not yet returned.
func (d *Detail) Returnable() int { return d.shipped - d.returned }
