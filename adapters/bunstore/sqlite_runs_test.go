package bunstore

import (
	"slices"
	"testing"
)

// The runs cover the rows once, in order, each at most the maximum and a
// power of two below it, so that a statement kind has few texts.
func TestSQLiteRunsCoverTheRowsInFewLengths(t *testing.T) {
	lengths := map[int]bool{}
	for n := range 2600 {
		next := 0
		if err := sqliteRuns(n, 1000, func(start, end int) error {
			if start != next || end <= start {
				t.Fatalf("%d rows: run [%d, %d) after %d", n, start, end, next)
			}
			lengths[end-start] = true
			next = end
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if next != n {
			t.Fatalf("%d rows: runs end at %d", n, next)
		}
	}
	got := slices.Sorted(func(yield func(int) bool) {
		for l := range lengths {
			if !yield(l) {
				return
			}
		}
	})
	if want := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000}; !slices.Equal(got, want) {
		t.Errorf("run lengths %v, want %v", got, want)
	}
	for n, want := range map[int]int{1: 1, 2: 2, 3: 4, 13: 16, 64: 64, 65: 128} {
		if got := sqliteListLength(n); got != want {
			t.Errorf("list of %d ids bound as %d, want %d", n, got, want)
		}
	}
}
