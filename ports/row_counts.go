package ports

import "context"

// RowCounts keeps the number of rows of the tables that lists show
// unfiltered at any size, so that their totals are not counted row by row.
type RowCounts interface {
	// Fold compacts what the counts are kept in; the counts stay exact
	// whether or not it runs, but reading them costs more the longer it
	// has not.
	Fold(ctx context.Context) error
}
