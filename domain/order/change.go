package order

import (
	"fmt"
	"strings"

	"github.com/shopstock/inventory/domain/email"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// Changes is what a shop may change of an order it pushed: statuses of the
// order and of positions, and the customer's address. nil: unchanged.
type Changes struct {
	Status        *string
	CustomerEmail *string
	Details       []DetailChange
}

// DetailChange sets the status of one position.
type DetailChange struct {
	ID     int64
	Status string
}

// Change applies changes, all or nothing: every broken rule is reported at
// once, each under its property, and an error leaves the order as it was.
// Positions change first, so that one request may cancel the last open
// position and complete the order.
func (o *Order) Change(c Changes) error {
	var bad []errs.FieldError
	fail := func(property, format string, args ...any) {
		bad = append(bad, errs.FieldError{Property: property, Message: fmt.Sprintf(format, args...)})
	}
	detailStatus := make(map[*Detail]DetailStatus, len(c.Details))
	for i, dc := range c.Details {
		prop := func(field string) string { return fmt.Sprintf("details[%d].%s", i, field) }
		d, ok := o.Detail(dc.ID)
		if !ok || dc.ID <= 0 {
			fail(prop("id"), "order %s has no order detail %d", o.number, dc.ID)
			continue
		}
		if _, dup := detailStatus[d]; dup {
			fail(prop("id"), "order detail %d is named twice", dc.ID)
			continue
		}
		to, err := ParseDetailStatus(dc.Status)
		if err != nil || dc.Status == "" {
			if err == nil {
				err = errs.Invalidf("must be one of %s", quoteAll(detailStatuses))
			}
			fail(prop("status"), "%s", err.Error())
			continue
		}
		detailStatus[d] = to
		if why := o.checkDetailStatus(d, to); why != "" {
			fail(prop("status"), "order detail %d: %s", d.id, why)
		}
	}

	var status Status
	if c.Status != nil {
		var err error
		if status, err = ParseStatus(*c.Status); err != nil || *c.Status == "" {
			if err == nil {
				err = errs.Invalidf("must be one of %s", quoteAll(statuses))
			}
			fail("status", "%s", err.Error())
		} else if why := o.checkStatus(status, detailStatus); why != "" {
			fail("status", "%s", why)
		}
	}

	var address string
	if c.CustomerEmail != nil {
		address = strings.TrimSpace(*c.CustomerEmail)
		if address != "" {
			var err error
			if address, err = email.Parse(address); err != nil {
				fail("customerEmail", "%s", err)
			}
		}
	}

	if len(bad) > 0 {
		e := errs.InvalidFields(bad...)
		if len(bad) == 1 {
			e.Message = fmt.Sprintf("order %s cannot be changed: %s: %s", o.number, bad[0].Property, bad[0].Message)
		} else {
			e.Message = fmt.Sprintf("order %s cannot be changed: %d problems", o.number, len(bad))
		}
		return e
	}
	for d, to := range detailStatus {
		d.status = to
	}
	if c.Status != nil {
		o.status = status
	}
	if c.CustomerEmail != nil {
		o.customerEmail = address
	}
	return nil
}

// checkDetailStatus says why position d may not become to by hand.
func (o *Order) checkDetailStatus(d *Detail, to DetailStatus) string {
	if to == d.status {
		return ""
	}
	if o.status == StatusCancelled {
		return "the order is cancelled, so its positions cannot change"
	}
	if why := detailStatusChange(d.status, to); why != "" {
		return why
	}
	switch {
	case to == DetailCancelled && d.Remaining() == 0:
		return "the position is fully shipped and cannot be cancelled"
	case to == DetailCompleted && d.Remaining() > 0:
		return fmt.Sprintf("%d of %d pieces are shipped; a position is completed by shipping it", d.shipped, d.quantity)
	case (to == DetailOpen || to == DetailInProgress) && d.Remaining() == 0:
		return "the position is fully shipped; it can only be completed"
	}
	return ""
}

// checkStatus says why the order may not become to by hand, with the
// positions' statuses as the same request sets them.
func (o *Order) checkStatus(to Status, detailStatus map[*Detail]DetailStatus) string {
	if why := statusChange(o.status, to); why != "" {
		return why
	}
	if to == o.status {
		return ""
	}
	statusOf := func(d *Detail) DetailStatus {
		if s, ok := detailStatus[d]; ok {
			return s
		}
		return d.status
	}
	var unshipped []string
	shipped := false
	for _, d := range o.details {
		shipped = shipped || d.shipped > 0
		if statusOf(d) != DetailCancelled && d.Remaining() > 0 {
			unshipped = append(unshipped, fmt.Sprintf("order detail %d has %d of %d shipped", d.id, d.shipped, d.quantity))
		}
	}
	switch to {
	case StatusCompletelyDelivered, StatusCompleted:
		if len(unshipped) > 0 {
			return fmt.Sprintf("the order cannot be %q while pieces are unshipped: %s", to, strings.Join(unshipped, ", "))
		}
	case StatusPartiallyDelivered:
		if !shipped {
			return fmt.Sprintf("the order cannot be %q: nothing has been shipped", to)
		}
		if len(unshipped) == 0 {
			return fmt.Sprintf("the order cannot be %q: nothing is left to ship", to)
		}
	case StatusCancelled:
		if shipped && len(unshipped) == 0 {
			return "the order is fully shipped and cannot be cancelled"
		}
	}
	return ""
}

// Change is an order change as a stock operation: a cancelled order or
// position releases its reservations (what it still has to ship becomes
// nothing), in the same transaction.
type Change struct {
	Order   *Order
	Changes Changes
}

func (c Change) Declare(sc *stock.Scope) { c.Order.declareHolds(sc) }

func (c Change) Run(ws *stock.WorkingSet, _ stock.Reference) error {
	if err := c.Order.Change(c.Changes); err != nil {
		return err
	}
	return c.Order.trim(ws)
}
