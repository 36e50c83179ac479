package order

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
)

// Status is the state of an order. The names are the ones clients send and
// read, so they double as the wire and storage form.
type Status string

const (
	StatusOpen                  Status = "Open"
	StatusInProcess             Status = "In process"
	StatusReadyForDelivery      Status = "Ready for delivery"
	StatusPartiallyDelivered    Status = "Partially delivered"
	StatusCompletelyDelivered   Status = "Completely delivered"
	StatusCompleted             Status = "Completed"
	StatusCancelled             Status = "Cancelled"
	StatusClarificationRequired Status = "Clarification required"
)

var statuses = []Status{
	StatusOpen, StatusInProcess, StatusReadyForDelivery, StatusPartiallyDelivered,
	StatusCompletelyDelivered, StatusCompleted, StatusCancelled, StatusClarificationRequired,
}

// ParseStatus reads an order status by its exact name. An empty name is Open,
// because the shop may push an order without saying where it stands.
func ParseStatus(s string) (Status, error) {
	if s == "" {
		return StatusOpen, nil
	}
	for _, st := range statuses {
		if string(st) == s {
			return st, nil
		}
	}
	return "", errs.Invalidf("unknown order status %q; allowed: %s", s, quoteAll(statuses))
}

// DetailStatus is the state of one order position.
type DetailStatus string

const (
	DetailOpen       DetailStatus = "Open"
	DetailInProgress DetailStatus = "In progress"
	DetailCompleted  DetailStatus = "Completed"
	DetailCancelled  DetailStatus = "Cancelled"
)

var detailStatuses = []DetailStatus{DetailOpen, DetailInProgress, DetailCompleted, DetailCancelled}

// ParseDetailStatus reads an order detail status by its exact name; an empty
// name is Open.
func ParseDetailStatus(s string) (DetailStatus, error) {
	if s == "" {
		return DetailOpen, nil
	}
	for _, st := range detailStatuses {
		if string(st) == s {
			return st, nil
		}
	}
	return "", errs.Invalidf("unknown order detail status %q; allowed: %s", s, quoteAll(detailStatuses))
}

func quoteAll[S ~string](values []S) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = `"` + string(v) + `"`
	}
	return strings.Join(quoted, ", ")
}

// transitions is the one table of the status changes a client may make by
// hand (PUT /api/orders/{id}); shipping and picking move statuses on their
// own. A status not listed as a source is final: Cancelled and Completed
// orders stay as they are. Setting the status an order already has is no
// change and always allowed. Guards that depend on the positions (nothing
// unshipped for Completely delivered and Completed, something shipped for
// Partially delivered, nothing left to cancel) are checked by
// Order.checkStatus.
var transitions = map[Status][]Status{
	StatusOpen:                  {StatusInProcess, StatusReadyForDelivery, StatusClarificationRequired, StatusCancelled, StatusPartiallyDelivered, StatusCompletelyDelivered, StatusCompleted},
	StatusInProcess:             {StatusOpen, StatusReadyForDelivery, StatusClarificationRequired, StatusCancelled, StatusPartiallyDelivered, StatusCompletelyDelivered, StatusCompleted},
	StatusReadyForDelivery:      {StatusOpen, StatusInProcess, StatusClarificationRequired, StatusCancelled, StatusPartiallyDelivered, StatusCompletelyDelivered, StatusCompleted},
	StatusClarificationRequired: {StatusOpen, StatusInProcess, StatusReadyForDelivery, StatusCancelled, StatusPartiallyDelivered, StatusCompletelyDelivered, StatusCompleted},
	StatusPartiallyDelivered:    {StatusInProcess, StatusReadyForDelivery, StatusClarificationRequired, StatusCancelled, StatusCompletelyDelivered, StatusCompleted},
	StatusCompletelyDelivered:   {StatusCompleted, StatusClarificationRequired},
}

// detailTransitions is the same table for positions: Cancelled is final, a
// Completed position can go nowhere by hand (it is fully shipped, or was
// completed when it was pushed).
var detailTransitions = map[DetailStatus][]DetailStatus{
	DetailOpen:       {DetailInProgress, DetailCompleted, DetailCancelled},
	DetailInProgress: {DetailOpen, DetailCompleted, DetailCancelled},
}

// statusChange says why an order may not go from one status to another,
// "" when it may.
func statusChange(from, to Status) string {
	if from == to || slices.Contains(transitions[from], to) {
		return ""
	}
	switch from {
	case StatusCancelled:
		return fmt.Sprintf("the order is cancelled, and a cancelled order cannot become %q", to)
	case StatusCompleted:
		return fmt.Sprintf("the order is completed, and a completed order cannot become %q", to)
	}
	if from == StatusCompletelyDelivered && to == StatusCancelled {
		return "the order is completely delivered, and a fully shipped order cannot be cancelled"
	}
	return fmt.Sprintf("an order cannot go from %q to %q; from %q it can become %s", from, to, from, quoteAll(transitions[from]))
}

// detailStatusChange says why a position may not go from one status to
// another, "" when it may.
func detailStatusChange(from, to DetailStatus) string {
	if from == to || slices.Contains(detailTransitions[from], to) {
		return ""
	}
	switch {
	case from == DetailCancelled:
		return fmt.Sprintf("the position is cancelled, and a cancelled position cannot become %q", to)
	case from == DetailCompleted && to == DetailCancelled:
		return "the position is completed, and a completed position cannot be cancelled"
	case from == DetailCompleted:
		return fmt.Sprintf("the position is completed, and a completed position cannot become %q", to)
	}
	return fmt.Sprintf("a position cannot go from %q to %q", from, to)
}
