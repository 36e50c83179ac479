package order

import (
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
