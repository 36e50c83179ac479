package limit

import (
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func requireInvalid(t *testing.T, err error, message string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || e.Error() != message {
		t.Errorf("got %v, want invalid %q", err, message)
	}
}

func TestABatchCarries1To1000Operations(t *testing.T) {
	for _, n := range []int{1, 1000} {
		if err := CheckBatchSize(n); err != nil {
			t.Errorf("%d operations: %v", n, err)
		}
	}
	requireInvalid(t, CheckBatchSize(0), "the batch is empty: send 1 to 1000 operations")
	requireInvalid(t, CheckBatchSize(1001), "the batch has 1001 operations; at most 1000 are allowed")
	if errs.CodeOf(CheckBatchSize(0)) != BatchSize {
		t.Error("an empty batch names no rule")
	}
}

func TestAFeedPageHolds1To1000EventsAfterAPositionOfAtLeast0(t *testing.T) {
	for _, n := range []int64{1, DefaultFeedPage, 1000} {
		if err := CheckFeedPage(n); err != nil {
			t.Errorf("limit %d: %v", n, err)
		}
	}
	for _, n := range []int64{0, -1, 1001} {
		requireInvalid(t, CheckFeedPage(n), "limit: must be an integer from 1 to 1000")
		if errs.PropertyOf(CheckFeedPage(n)) != "limit" {
			t.Errorf("limit %d: not about the limit", n)
		}
	}
	if err := CheckFeedAfter(0); err != nil {
		t.Error(err)
	}
	requireInvalid(t, CheckFeedAfter(-1), "after: must be an integer of at least 0")
}

func TestAListHasAtMost50Filters10SortsAnd1000ValuesInOneIn(t *testing.T) {
	if err := CheckListShape(50, 10); err != nil {
		t.Error(err)
	}
	requireInvalid(t, CheckListShape(51, 0), "the list has 51 filters; at most 50 are allowed")
	requireInvalid(t, CheckListShape(0, 11), "the list has 11 sorts; at most 10 are allowed")
	if err := CheckInValues(2, "IN", 1000); err != nil {
		t.Error(err)
	}
	requireInvalid(t, CheckInValues(2, "IN", 1001), "filter[2][value] holds 1001 values; IN takes at most 1000")
}

func TestAnIdIs1To2147483647(t *testing.T) {
	for n, want := range map[int64]bool{0: false, 1: true, 2147483647: true, 2147483648: false, -1: false} {
		if ValidID(n) != want {
			t.Errorf("ValidID(%d) = %v", n, !want)
		}
	}
}

func TestAnImportCarries1To100000Lines(t *testing.T) {
	for _, n := range []int{1, 100_000} {
		if err := CheckImportLines(n); err != nil {
			t.Errorf("%d lines: %v", n, err)
		}
	}
	requireInvalid(t, CheckImportLines(0), "the import has no lines after the header: send 1 to 100000")
	requireInvalid(t, CheckImportLines(100_001), "the import has 100001 lines after the header; at most 100000 are allowed")
	requireInvalid(t, TooManyImportLines(0), "the import has more than 100000 lines after the header")
}
