package transfer

import (
	"fmt"
	"strings"
)

// Status is where a transfer stands.
//
//	Open ──shipment──▶ In transit ──receipt──▶ Partially received ──receipt──▶ Completed
//	  │                    │                      │   ▲ shipment (stays)
//	  ╰────────────────────┴──────cancel──────────┴──▶ Cancelled
//
// A receipt that leaves every line fully shipped and nothing in transit
// completes the transfer, from In transit as well.
type Status string

const (
	Open              Status = "Open"
	InTransit         Status = "In transit"
	PartiallyReceived Status = "Partially received"
	Completed         Status = "Completed"
	Cancelled         Status = "Cancelled"
)

// Statuses lists every status, in the order a transfer goes through them.
var Statuses = []Status{Open, InTransit, PartiallyReceived, Completed, Cancelled}

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
	return "", fmt.Errorf("unknown transfer status %q; allowed: %s", s, strings.Join(names, ", "))
}

// running tells whether a transfer in this status still ships, receives
// and may be cancelled.
func (s Status) running() bool { return s == Open || s == InTransit || s == PartiallyReceived }

// Running tells whether a transfer in this status still takes shipments,
// receipts and a cancellation.
func (s Status) Running() bool { return s.running() }
