package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/ports"
)

type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys"`

	Key         string    `bun:"key,pk"`
	Endpoint    string    `bun:"endpoint"`
	Fingerprint string    `bun:"fingerprint"`
	Response    []byte    `bun:"response"`
	CreatedAt   time.Time `bun:"created_at"`
}

type idempotency struct{ s *store }

func (s *store) Idempotency() ports.IdempotencyStore { return idempotency{s} }

// Claim inserts the key, or reads the result stored under it
// (dialect.claimKey).
func (r idempotency) Claim(ctx context.Context, key, endpoint, fingerprint string, at time.Time) (*ports.StoredBatch, error) {
	row := &idempotencyRow{Key: key, Endpoint: endpoint, Fingerprint: fingerprint, CreatedAt: at.UTC()}
	// A key the claim met may be purged (it had expired) before it is
	// read: the key is then free, and the claim is tried again.
	for {
		if claimed, err := r.s.db.dialect.claimKey(ctx, r.s, row); err != nil || claimed {
			return nil, err
		}
		stored := new(idempotencyRow)
		err := r.s.idb.NewSelect().Model(stored).Where("key = ?", key).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &ports.StoredBatch{Endpoint: stored.Endpoint, Fingerprint: stored.Fingerprint, Response: stored.Response}, nil
	}
}

func (r idempotency) Complete(ctx context.Context, key string, response []byte) error {
	return r.s.exec(ctx, "UPDATE idempotency_keys SET response = ? WHERE key = ?", response, key)
}

// Purge deletes one chunk, found in the created_at index, so that its
// locks and its share of the write-ahead log stay small.
func (r idempotency) Purge(ctx context.Context, before time.Time, limit int) (int, error) {
	oldest := r.s.idb.NewSelect().Table("idempotency_keys").Column("key").Where("created_at < ?", before.UTC()).
		Order("created_at").Limit(int64(limit))
	res, err := r.s.idb.NewDelete().Table("idempotency_keys").Where("key IN (?)", oldest).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
