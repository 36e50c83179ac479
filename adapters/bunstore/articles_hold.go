package bunstore

import (
	"context"
	"fmt"
)

// The locks of products beside the stock writers' (productLock). A new
// order or purchase order only needs its products to stay until its rows
// are stored: the key-share lock that inserting a referencing row takes
// anyway, which neither waits for nor delays a stock writer. A deletion
// takes the row's strongest lock, so it waits for every holder and then
// sees what the holder stored.
const (
	holdLock   = "KEY SHARE"
	deleteLock = "UPDATE"
)

func (r articles) Hold(ctx context.Context, ids []int64) (map[int64]bool, error) {
	return r.lockStrength(ctx, ids, holdLock)
}

func (r articles) LockToDelete(ctx context.Context, id int64) error {
	_, err := r.lockStrength(ctx, []int64{id}, deleteLock)
	return err
}

// lockStrength locks the products in id order with the lock of strength
// (in a write transaction on PostgreSQL; SQLite's immediate transaction
// holds the whole database) and returns those that exist.
func (r articles) lockStrength(ctx context.Context, ids []int64, strength string) (map[int64]bool, error) {
	found := make(map[int64]bool, len(ids))
	if len(ids) == 0 {
		return found, nil
	}
	query := lockArticlesSQL
	if lock := r.s.rowLock(strength); lock != "" {
		query += " FOR " + lock
	}
	rows, done, err := r.s.queryIDs(ctx, query, ids)
	if err != nil {
		return nil, fmt.Errorf("lock article details: %w", err)
	}
	defer done()
	defer rows.Close()
	got := make([]int64, 0, len(ids))
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("lock article details: %w", err)
		}
		got = append(got, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("lock article details: %w", err)
	}
	for _, id := range got {
		found[id] = true
	}
	return found, nil
}
