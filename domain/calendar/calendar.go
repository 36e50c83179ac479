// Package calendar holds the domain's one notion of a date: a day in UTC,
// written YYYY-MM-DD, held as the time.Time of its midnight (UTC). Every
// date a client writes (a best-before date, a purchase order's expected
// date) is read by Parse.
package calendar

import (
	"fmt"
	"time"
)

// Layout is how a date is written.
const Layout = "2006-01-02"

// Parse reads a date written YYYY-MM-DD as the midnight (UTC) that starts
// it. A day that does not exist (2027-02-30) or any other spelling fails.
func Parse(s string) (time.Time, error) {
	t, err := time.Parse(Layout, s)
	if err != nil || t.Format(Layout) != s {
		return time.Time{}, fmt.Errorf("must be a date YYYY-MM-DD, got %q", s)
	}
	return t, nil
}

// Format writes the UTC day of t.
func Format(t time.Time) string { return t.UTC().Format(Layout) }

// Today is the UTC day of now, as its midnight: the domain has no clock,
// so "today" is always taken from a time it is given.
func Today(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
