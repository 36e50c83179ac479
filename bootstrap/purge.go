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
	every(lc, purgeInterval, func(ctx context.Context) {
		n, err := app.PurgeIdempotencyKeys(ctx, c.IdempotencyRetention)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("purging idempotency keys failed", zap.Error(err))
		case n > 0:
			log.Info("purged idempotency keys", zap.Int("count", n))
		}
	})
}

// expiryInterval is how often expired lots are looked for: well within the
// minute after midnight UTC in which their expiry is to be recorded.
const expiryInterval = 20 * time.Second

// runLotExpiry records the expiry of lots, at start and then periodically,
// until the service stops. Every instance runs it; each lot is counted once.
func runLotExpiry(lc fx.Lifecycle, app *application.App, log *zap.Logger) {
	every(lc, expiryInterval, func(ctx context.Context) {
		n, err := app.ExpireLots(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("recording the expiry of lots failed", zap.Error(err))
		case n > 0:
			log.Info("recorded the expiry of lots", zap.Int("count", n))
		}
	})
}
