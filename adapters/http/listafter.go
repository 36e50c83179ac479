package http

import (
	"net/url"
	"strconv"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// parseAfter reads a list's after: the id of the last item of the page
// before, so that the next page is found in the id index however deep it
// lies. It pages in the default order by id only: under another sort the
// items after an id are not the ones after a position, so a sort with
// after is refused rather than answered with a page that skips or repeats
// items. Start still applies, within the items after the id.
func parseAfter(query url.Values, q *ports.ListQuery) error {
	values, given := query["after"]
	if !given {
		return nil
	}
	bad := errs.FieldError{Property: "after", Message: "must be an integer of at least 0: the id of the last item of the page before"}
	if len(values) != 1 {
		return errs.InvalidFields(bad)
	}
	n, err := strconv.ParseInt(values[0], 10, 64)
	if err != nil || n < 0 {
		return errs.InvalidFields(bad)
	}
	if len(q.Sorts) > 0 {
		return errs.InvalidFields(errs.FieldError{Property: "after",
			Message: "pages in the default order by id only: leave out sort, or page a sorted list with start"})
	}
	q.After = n
	return nil
}
