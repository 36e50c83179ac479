package bunstore

import (
	"strconv"
	"strings"
)

// sqliteColumns builds set-based SQLite statements over many rows whose
// values are bound as parameters: a column whose value every row shares is
// bound once, as a numbered parameter (?N) that each row names, so that a
// thousand rows bind a thousand fewer values per shared column.
type sqliteColumns struct {
	names  []string
	shared []bool
	values [][]any // per column: one value when shared, else one per row
	rows   int
}

func newSQLiteColumns(rows int) *sqliteColumns { return &sqliteColumns{rows: rows} }

// sqliteColumn adds a column whose values get reads from the rows.
func sqliteColumn[R any, T comparable](c *sqliteColumns, rows []R, name string, get func(*R) T, bind func(T) any) {
	first := get(&rows[0])
	shared := true
	for i := 1; i < len(rows) && shared; i++ {
		shared = equalValue(get(&rows[i]), first)
	}
	values := []any{bind(first)}
	if !shared {
		values = make([]any, len(rows))
		for i := range rows {
			values[i] = bind(get(&rows[i]))
		}
	}
	c.names, c.shared, c.values = append(c.names, name), append(c.shared, shared), append(c.values, values)
}

// sqliteMaxParameters is SQLite's limit of parameters in one statement.
const sqliteMaxParameters = 32766

// chunks splits the rows into runs that each fit in one statement of at
// most maxRows rows, and calls fn with each run's VALUES tuples (one per
// row, every column in order) and their arguments.
func (c *sqliteColumns) chunks(maxRows int, fn func(tuples string, args []any) error) error {
	var sharedArgs []any
	number := make([]int, len(c.names)) // the parameter number of a shared column
	perRow := 0
	for i, shared := range c.shared {
		if shared {
			sharedArgs = append(sharedArgs, c.values[i][0])
			number[i] = len(sharedArgs)
		} else {
			perRow++
		}
	}
	if perRow > 0 {
		maxRows = max(1, min(maxRows, (sqliteMaxParameters-len(sharedArgs))/perRow))
	}
	var tuples strings.Builder
	for start := 0; start < c.rows; start += maxRows {
		end := min(start+maxRows, c.rows)
		args := append(make([]any, 0, len(sharedArgs)+perRow*(end-start)), sharedArgs...)
		tuples.Reset()
		for r := start; r < end; r++ {
			if r > start {
				tuples.WriteString(", ")
			}
			tuples.WriteByte('(')
			for i, shared := range c.shared {
				if i > 0 {
					tuples.WriteString(", ")
				}
				tuples.WriteByte('?')
				if shared {
					tuples.WriteString(strconv.Itoa(number[i]))
					continue
				}
				args = append(args, c.values[i][r])
				tuples.WriteString(strconv.Itoa(len(args)))
			}
			tuples.WriteByte(')')
		}
		if err := fn(tuples.String(), args); err != nil {
			return err
		}
	}
	return nil
}
