package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// PurgeIdempotencyKeys forgets batch results older than retention; their
// keys may then be used again.
func (a *App) PurgeIdempotencyKeys(ctx context.Context, retention time.Duration) (n int, err error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return n, err
	}
	before := a.clock.Now().Add(-retention)
	return a.purgeInChunks(ctx, func(ctx context.Context, s ports.Store) (int, error) {
		return s.Idempotency().Purge(ctx, before, PurgeChunk)
	})
}
