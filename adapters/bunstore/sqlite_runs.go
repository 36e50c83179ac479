package bunstore

// On SQLite a set-based statement binds its rows' values as parameters, so
// its text depends on how many rows it carries, and only statements whose
// text recurs are kept prepared (sqliteStatements). A thousand-operation
// batch has the same size from one batch to the next; the requests of a
// shop do not: a new order names 5 to 15 products, a group of shipments
// some dozens, and every count makes a text of its own, which a cache of a
// few dozen texts cannot keep, so nearly every statement was parsed again
// (in the mixed workload 7 200 of them in 2 000 requests, a quarter of the
// service's CPU). So the rows go in runs whose lengths are powers of two
// (and the chunk's maximum): 13 rows are a statement of 8, one of 4 and one
// of 1, and a statement kind has at most a dozen texts, all kept.

// sqliteRuns calls fn with consecutive runs [start, end) of n rows: runs of
// maxRows while that many are left, then of the largest power of two that
// fits.
func sqliteRuns(n, maxRows int, fn func(start, end int) error) error {
	for start := 0; start < n; {
		size := maxRows
		if left := n - start; left < maxRows {
			size = 1
			for size*2 <= left {
				size *= 2
			}
		}
		if err := fn(start, start+size); err != nil {
			return err
		}
		start += size
	}
	return nil
}

// sqliteListLength is how many ids a bound IN list of n ids carries: n
// rounded up to a power of two (the last id repeated, which changes no
// answer), so that a query has a few texts, all kept.
func sqliteListLength(n int) int {
	size := 1
	for size < n {
		size *= 2
	}
	return size
}
