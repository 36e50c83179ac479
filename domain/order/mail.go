package order

import (
	"fmt"
	"strings"
)

// SendsStatusMail tells whether shipping the order sends the customer the
// status mail: unless the caller suppressed it, whenever the order has an
// address to send it to.
func (o *Order) SendsStatusMail(suppressed bool) bool {
	return !suppressed && o.customerEmail != ""
}

// StatusMail is the text of the status update mail sent to the customer after
// a shipment. It lives here, in one place, so every use case and every
// retry of the outbox sends the same words. It depends on nothing but the
// order, so the same order always gives the same mail.
func StatusMail(o *Order) (subject, body string) {
	subject = fmt.Sprintf("Your order %s is now %s", o.number, o.status)

	var b strings.Builder
	fmt.Fprintf(&b, "Hello,\n\n")
	fmt.Fprintf(&b, "the status of your order %s has changed to: %s.\n\n", o.number, o.status)
	fmt.Fprintf(&b, "Positions:\n")
	for _, d := range o.details {
		fmt.Fprintf(&b, "- article %d: %d of %d shipped (%s)\n", d.articleDetailID, d.shipped, d.quantity, d.status)
	}
	fmt.Fprintf(&b, "\nThank you for your order.\n")
	return subject, b.String()
}
