package bunstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Ids of new orders, purchase orders and their positions and lines, when
// the shop chooses none.
//
// On PostgreSQL they come from a sequence per table (`<table>_assigned_id`,
// migration 20261129110000_assigned_ids), which never waits: concurrent
// creators do not take turns, as they would on max(id)+1, which needs a
// lock held until commit. The shop may choose ids too, so before a
// document with chosen ids is stored the sequence is moved past them
// (setval, unless it is there already), and an assigned id that meets a
// row anyway (a chosen id stored by a creator racing the move) makes the
// attempt start over (errAssignedIDTaken, retried by DB.Write), with ids
// taken afresh. On SQLite the one writer takes max(id)+1 on.

// errAssignedIDTaken: an id the sequence handed out was already a row's.
var errAssignedIDTaken = errors.New("an assigned id was taken by a row whose id was chosen")

// assignedSequence is the sequence of table's assigned ids.
func assignedSequence(table string) string { return table + "_assigned_id" }

func (postgresDialect) assignIDs(ctx context.Context, s *store, table string, n int, chosen []int64) ([]int64, error) {
	seq := assignedSequence(table)
	if len(chosen) > 0 {
		top := slices.Max(chosen)
		if _, err := s.idb.ExecContext(ctx, "SELECT setval(?, ?) FROM "+seq+" WHERE last_value < ?", seq, top, top); err != nil {
			return nil, fmt.Errorf("move %s past the chosen ids: %w", seq, err)
		}
	}
	if n == 0 {
		return nil, nil
	}
	ids := make([]int64, 0, n)
	if err := s.idb.NewRaw("SELECT nextval(?) FROM generate_series(1, ?)", seq, n).Scan(ctx, &ids); err != nil {
		return nil, fmt.Errorf("assign ids of %s: %w", table, err)
	}
	return ids, nil
}

func (*sqliteDialect) assignIDs(ctx context.Context, s *store, table string, n int, chosen []int64) ([]int64, error) {
	if n == 0 {
		return nil, nil
	}
	rows, done, err := s.db.dialect.queryKept(ctx, s, "SELECT COALESCE(MAX(id), 0) + 1 FROM "+table)
	if err != nil {
		return nil, err
	}
	var next int64
	for rows.Next() {
		err = rows.Scan(&next)
	}
	if err == nil {
		err = rows.Err()
	}
	rows.Close()
	done()
	if err != nil {
		return nil, err
	}
	for _, id := range chosen {
		next = max(next, id+1)
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = next + int64(i)
	}
	return ids, nil
}

// assignIDs gives every zero of ids an id of table's and says which it
// assigned.
func (s *store) assignIDs(ctx context.Context, table string, ids []int64) (assigned map[int64]bool, err error) {
	var chosen []int64
	for _, id := range ids {
		if id != 0 {
			chosen = append(chosen, id)
		}
	}
	fresh, err := s.db.dialect.assignIDs(ctx, s, table, len(ids)-len(chosen), chosen)
	if err != nil {
		return nil, err
	}
	assigned = make(map[int64]bool, len(fresh))
	for i := range ids {
		if ids[i] == 0 {
			ids[i], fresh = fresh[0], fresh[1:]
			assigned[ids[i]] = true
		}
	}
	return assigned, nil
}
