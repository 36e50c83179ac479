package bunstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The rows whose ids a client may choose (products, orders, purchase
// orders, transfers and their positions) get, when the client chose none,
// an id after every stored one and after every one the client chose for
// the same document. On PostgreSQL each table has a sequence: handing out
// an id takes no lock held to the commit, so two transactions creating
// orders do not wait for each other, and an id that a rolled-back
// transaction took is not handed out again. On SQLite the write
// transaction holds the whole database, and the id after the largest
// stored one is free until it commits.

// idWant asks for n new ids of table's rows, past chosen: the ids the
// client chose for other rows of the same write, not stored yet.
type idWant struct {
	table  string
	n      int
	chosen []int64
}

// errIDRaced: a row with an id handed out by the database met a row of the
// same id, one that a client chose in a transaction that committed after
// the id was handed out. The attempt starts over and takes the next one.
var errIDRaced = errors.New("a new id was taken by a concurrent write")

// documentIDs fills in the ids the client left zero: the document's (id)
// in table, and its items' in itemTable. It answers all of them, in the
// items' order.
func documentIDs(ctx context.Context, s *store, table string, id int64, itemTable string, items []int64) (int64, []int64, error) {
	wants := []idWant{{table: table}, {table: itemTable}}
	if id == 0 {
		wants[0].n = 1
	}
	for _, item := range items {
		if item == 0 {
			wants[1].n++
		} else {
			wants[1].chosen = append(wants[1].chosen, item)
		}
	}
	taken, err := s.db.dialect.takeIDs(ctx, s, wants)
	if err != nil {
		return 0, nil, fmt.Errorf("new ids of %s: %w", table, err)
	}
	if id == 0 {
		id = taken[0][0]
	}
	filled := slices.Clone(items)
	next := taken[1]
	for i := range filled {
		if filled[i] == 0 {
			filled[i], next = next[0], next[1:]
		}
	}
	return id, filled, nil
}

// raced tells whether err, from inserting rows, is a unique violation of
// an id the database handed out (one not among chosen, the ids the client
// chose): a race with a client's chosen id that committed after the id was
// handed out, which on PostgreSQL only is possible. The attempt starts over
// (errIDRaced) rather than tell the client its id was taken.
func raced(err error, chosen ...int64) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" || !strings.HasSuffix(pgErr.ConstraintName, "_pkey") {
		return false
	}
	return !slices.Contains(chosen, violatedID(err))
}

// idsOf is the ids of items, in their order.
func idsOf[T interface{ ID() int64 }](items []T) []int64 {
	ids := make([]int64, len(items))
	for i, item := range items {
		ids[i] = item.ID()
	}
	return ids
}

// maxOf is the largest of ids, 0 for none.
func maxOf(ids []int64) int64 {
	if len(ids) == 0 {
		return 0
	}
	return max(0, slices.Max(ids))
}

// takeIDs on PostgreSQL: each table's sequence hands out the ids, after it
// was moved past the largest stored id and the chosen ones where it is
// behind them (rows inserted with ids of their own, by a client or by
// hand). All of it in one round trip.
func (postgresDialect) takeIDs(ctx context.Context, s *store, wants []idWant) ([][]int64, error) {
	out := make([][]int64, len(wants))
	var b pgx.Batch
	for i, w := range wants {
		if w.n == 0 {
			continue
		}
		seq := w.table + "_id_seq"
		b.Queue("SELECT setval('"+seq+"', top) FROM (SELECT GREATEST(COALESCE(MAX(id), 0), $1::bigint) AS top FROM "+w.table+") AS t"+
			" WHERE top >= (SELECT last_value FROM "+seq+")", maxOf(w.chosen))
		b.Queue("SELECT nextval('"+seq+"') FROM generate_series(1, $1::int)", w.n).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					return err
				}
				out[i] = append(out[i], id)
			}
			return rows.Err()
		})
	}
	return out, s.sendBatch(ctx, &b)
}

// takeIDs on SQLite: the ids after the largest stored and chosen one. The
// write transaction holds the whole database, so no other writer takes
// them before the commit.
func (*sqliteDialect) takeIDs(ctx context.Context, s *store, wants []idWant) ([][]int64, error) {
	out := make([][]int64, len(wants))
	for i, w := range wants {
		if w.n == 0 {
			continue
		}
		var top int64
		if err := s.idb.NewSelect().ColumnExpr("COALESCE(MAX(id), 0)").TableExpr(w.table).Scan(ctx, &top); err != nil {
			return nil, err
		}
		top = max(top, maxOf(w.chosen))
		for j := range w.n {
			out[i] = append(out[i], top+1+int64(j))
		}
	}
	return out, nil
}
