package calendar

import (
	"testing"
	"time"
)

func TestADateIsWrittenYYYYMMDD(t *testing.T) {
	d, err := Parse("2027-03-31")
	if err != nil || !d.Equal(time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC)) || Format(d) != "2027-03-31" {
		t.Fatalf("2027-03-31: %v, %v", d, err)
	}
	for _, bad := range []string{"", "31.03.2027", "2027-02-30", "2027-3-31", "2027-03-31T00:00:00Z", " 2027-03-31"} {
		if _, err := Parse(bad); err == nil || err.Error() != `must be a date YYYY-MM-DD, got "`+bad+`"` {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestTodayIsTheUTCDayOfATimeGiven(t *testing.T) {
	east := time.FixedZone("UTC+2", 2*3600)
	for _, c := range []struct {
		now  time.Time
		want string
	}{
		{time.Date(2027, 3, 31, 23, 59, 59, 0, time.UTC), "2027-03-31"},
		{time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC), "2027-04-01"},
		{time.Date(2027, 4, 1, 1, 0, 0, 0, east), "2027-03-31"},
	} {
		if got := Today(c.now); Format(got) != c.want || got.Location() != time.UTC || !got.Equal(got.Truncate(24*time.Hour)) {
			t.Errorf("%v: %v, want %s", c.now, got, c.want)
		}
	}
}
