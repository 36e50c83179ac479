package bunstore

import (
	"context"
	"database/sql"
	"strings"
	"sync"

	"github.com/uptrace/bun"
)

// sqliteColumns builds set-based SQLite statements over many rows whose
// values are bound as positional parameters (numbered ones, ?N, the driver
// binds by name, which costs several times more for a thousand rows).
type sqliteColumns struct {
	names  []string
	values [][]any // per column, one per row
	rows   int
}

func newSQLiteColumns(rows int) *sqliteColumns { return &sqliteColumns{rows: rows} }

// sqliteColumn adds a column whose parameters value reads from the rows.
func sqliteColumn[R any](c *sqliteColumns, rows []R, name string, value func(*R) any) {
	values := make([]any, len(rows))
	for i := range rows {
		values[i] = value(&rows[i])
	}
	c.names, c.values = append(c.names, name), append(c.values, values)
}

// sqliteMaxParameters is SQLite's limit of parameters in one statement.
const sqliteMaxParameters = 32766

// sqliteChunk is the part of a statement over one run of rows: the
// columns' names, the VALUES tuples of the run and their arguments.
type sqliteChunk struct {
	columns []string
	tuples  string // "(?, ?), (?, ?)…"
	args    []any
}

// chunks splits the rows into runs that each fit in one statement of at
// most maxRows rows, of the lengths sqliteRuns gives, and calls fn with
// each.
func (c *sqliteColumns) chunks(maxRows int, fn func(sqliteChunk) error) error {
	maxRows = max(1, min(maxRows, sqliteMaxParameters/len(c.names)))
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(c.names)), ", ") + ")"
	return sqliteRuns(c.rows, maxRows, func(start, end int) error {
		chunk := sqliteChunk{columns: c.names, tuples: strings.TrimSuffix(strings.Repeat(tuple+", ", end-start), ", ")}
		chunk.args = make([]any, 0, len(c.names)*(end-start))
		for r := start; r < end; r++ {
			for _, values := range c.values {
				chunk.args = append(chunk.args, values[r])
			}
		}
		return fn(chunk)
	})
}

// sqliteRowsChunk rows at most go into one SQLite statement.
const sqliteRowsChunk = 1000

// insert is the statement that inserts the chunk's rows into table.
func (c sqliteChunk) insert(table string) string {
	return "INSERT INTO " + table + " (" + strings.Join(c.columns, ", ") + ") VALUES " + c.tuples
}

// sqliteStatements keeps prepared statements by their text: preparing a
// statement of a thousand rows costs about half of running it, and a
// batch's statements have the same text from one batch of its size to the
// next.
type sqliteStatements struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
	order []string // oldest first
}

// sqliteStatementsKept holds every statement kind of the write paths in
// each of its run lengths (sqliteRuns: a dozen at most per kind).
const sqliteStatementsKept = 256

// execPrepared runs text in the store's transaction through the statement
// cache, or as it is outside a transaction.
func (d *sqliteDialect) execPrepared(ctx context.Context, s *store, text string, args ...any) error {
	stmt, err := d.prepared(ctx, s, text)
	if err != nil {
		return err
	}
	if stmt == nil {
		_, err = s.sqlConn().ExecContext(ctx, text, args...)
		return err
	}
	defer stmt.Close()
	_, err = stmt.ExecContext(ctx, args...)
	return err
}

// queryPrepared is execPrepared for a query; the caller closes the rows.
func (d *sqliteDialect) queryPrepared(ctx context.Context, s *store, text string, args ...any) (*sql.Rows, func(), error) {
	stmt, err := d.prepared(ctx, s, text)
	if err != nil {
		return nil, nil, err
	}
	if stmt == nil {
		rows, err := s.sqlConn().QueryContext(ctx, text, args...)
		return rows, func() {}, err
	}
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		stmt.Close()
		return nil, nil, err
	}
	return rows, func() { stmt.Close() }, nil
}

// prepared is the cached statement for text bound to the store's
// transaction (closed by the caller; the cached one stays), or nil outside
// a transaction.
func (d *sqliteDialect) prepared(ctx context.Context, s *store, text string) (*sql.Stmt, error) {
	tx, ok := s.idb.(bun.Tx)
	// A database of one connection (SQLite in memory) has none free to
	// prepare on while the transaction holds it.
	if !ok || s.db.bun.DB.Stats().MaxOpenConnections == 1 {
		return nil, nil
	}
	c := &d.statements
	c.mu.Lock()
	parent, ok := c.stmts[text]
	c.mu.Unlock()
	if !ok {
		// Prepared on the transaction's connection through the pool, so
		// that the transaction does not wait for another connection.
		var err error
		if parent, err = s.db.bun.DB.PrepareContext(ctx, text); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if prev, raced := c.stmts[text]; raced {
			parent.Close()
			parent = prev
		} else {
			if c.stmts == nil {
				c.stmts = map[string]*sql.Stmt{}
			}
			c.stmts[text] = parent
			c.order = append(c.order, text)
			if len(c.order) > sqliteStatementsKept {
				c.stmts[c.order[0]].Close()
				delete(c.stmts, c.order[0])
				c.order = c.order[1:]
			}
		}
		c.mu.Unlock()
	}
	return tx.Tx.StmtContext(ctx, parent), nil
}

func (c *sqliteStatements) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, stmt := range c.stmts {
		stmt.Close()
	}
	c.stmts, c.order = nil, nil
}

// inIDsMarker stands in a query for "is one of the ids" (queryIDs).
const inIDsMarker = "IN_IDS"
