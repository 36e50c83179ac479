package purchase

import (
	"fmt"
	"strings"
)

// Status is where a purchase order stands. Open and Partially received
// orders still bring stock; Received and Cancelled ones are done.
//
//	Open ──receipt──▶ Partially received ──receipt──▶ Received
//	  │   ╰──────────── receipt of everything ──────────▲
//	  ╰──────cancel──▶ Cancelled ◀──cancel── Partially received
type Status string

const (
	Open              Status = "Open"
	PartiallyReceived Status = "Partially received"
	Received          Status = "Received"
	Cancelled         Status = "Cancelled"
)

// Statuses lists every status, in the order an order goes through them.
var Statuses = []Status{Open, PartiallyReceived, Received, Cancelled}

// ParseStatus reads a status by its name.
func ParseStatus(s string) (Status, error) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, nil
		}
	}
	names := make([]string, len(Statuses))
	for i, st := range Statuses {
		names[i] = fmt.Sprintf("%q", st)
	}
	return "", fmt.Errorf("unknown purchase order status %q; allowed: %s", s, strings.Join(names, ", "))
}

// open tells whether the order still brings stock: it takes receipts and
// changes, and its outstanding lines count as incoming.
func (s Status) open() bool { return s == Open || s == PartiallyReceived }

// Receivable tells whether an order in this status still takes receipts
// and changes.
func (s Status) Receivable() bool { return s.open() }
