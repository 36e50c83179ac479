package application

import (
	"context"

	"github.com/shopstock/inventory/ports"
)

// PurgeChunk is how many rows one purge transaction removes at most: a
// purge that has fallen far behind (a long retention shortened, a service
// stopped for weeks) removes its backlog in many short transactions,
// none of which holds its locks or grows the write-ahead log for long.
const PurgeChunk = 1000

// purgeInChunks runs purge, each run a write transaction of its own,
// until one removes nothing or ctx ends, and adds up what they removed.
func (a *App) purgeInChunks(ctx context.Context, purge func(ctx context.Context, s ports.Store) (int, error)) (int, error) {
	total := 0
	for {
		var n int
		err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
			var err error
			n, err = purge(ctx, s)
			return err
		})
		if err != nil {
			return total, err
		}
		total += n
		if n == 0 {
			return total, nil
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}
