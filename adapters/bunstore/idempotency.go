package bunstore

import (
	"context"
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

// Claim inserts the key; on PostgreSQL an insert that collides with a
// racing, uncommitted insert of the same key waits for it to commit, so the
// loser then reads the winner's stored result instead of running again.
// There it goes with what waits in execSoon (a transaction's BEGIN: the
// claim is a batch's first statement).
func (r idempotency) Claim(ctx context.Context, key, endpoint, fingerprint string, at time.Time) (*ports.StoredBatch, error) {
	if r.s.conn != nil {
		results, err := r.s.queryAfterPending(ctx, []string{`INSERT INTO idempotency_keys (key, endpoint, fingerprint, created_at)
VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`}, key, endpoint, fingerprint, at.UTC())
		if err != nil {
			return nil, err
		}
		if results[0].CommandTag.RowsAffected() == 1 {
			return nil, nil
		}
	} else {
		row := &idempotencyRow{Key: key, Endpoint: endpoint, Fingerprint: fingerprint, CreatedAt: at.UTC()}
		res, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("response").On("CONFLICT (key) DO NOTHING").Exec(ctx)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return nil, err
		}
	}
	stored := new(idempotencyRow)
	if err := r.s.idb.NewSelect().Model(stored).Where("key = ?", key).Scan(ctx); err != nil {
		return nil, err
	}
	return &ports.StoredBatch{Endpoint: stored.Endpoint, Fingerprint: stored.Fingerprint, Response: stored.Response}, nil
}

func (r idempotency) Complete(ctx context.Context, key string, response []byte) error {
	// Nothing reads the response before the commit: on PostgreSQL it goes
	// with the transaction's last statements (execSoon).
	return r.s.execSoon(ctx, "UPDATE idempotency_keys SET response = ? WHERE key = ?", response, key)
}

func (r idempotency) Purge(ctx context.Context, before time.Time) (int, error) {
	res, err := r.s.idb.NewDelete().Table("idempotency_keys").Where("created_at < ?", before.UTC()).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
