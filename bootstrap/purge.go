package bootstrap

import (
	"context"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/application"
)

// purgeInterval is how often expired idempotency keys are forgotten.
const purgeInterval = 10 * time.Minute

// runIdempotencyPurge forgets batch results older than the retention, at
// start and then periodically, until the service stops.
func runIdempotencyPurge(lc fx.Lifecycle, app *application.App, c Config, log *zap.Logger) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	purge := func() {
		n, err := app.PurgeIdempotencyKeys(ctx, c.IdempotencyRetention)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("purging idempotency keys failed", zap.Error(err))
		case n > 0:
			log.Info("purged idempotency keys", zap.Int("count", n))
		}
	}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				ticker := time.NewTicker(purgeInterval)
				defer ticker.Stop()
				purge()
				for {
					select {
					case <-ctx.Done():
						return
					case <-ticker.C:
						purge()
					}
				}
			}()
			return nil
		},
		OnStop: func(stop context.Context) error {
			cancel()
			select {
			case <-done:
			case <-stop.Done():
			}
			return nil
		},
	})
}
