package bootstrap

import (
	"context"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/application"
)

// rowCountFoldInterval is how often the kept row counts are compacted: on
// PostgreSQL every writing statement adds a row to them, and a minute of
// a busy shop's statements is still a short sum to read.
const rowCountFoldInterval = time.Minute

// runRowCountFold compacts the kept row counts, at start and then
// periodically, until the service stops.
func runRowCountFold(lc fx.Lifecycle, app *application.App, log *zap.Logger) {
	every(lc, rowCountFoldInterval, func(ctx context.Context) {
		if err := app.FoldRowCounts(ctx); err != nil && ctx.Err() == nil {
			log.Warn("folding the kept row counts failed", zap.Error(err))
		}
	})
}
