package bootstrap

import (
	"context"
	"time"

	"go.uber.org/fx"

	"github.com/shopstock/inventory/application"
)

// every runs round at start and then every interval in the background until
// the service stops; stopping cancels the round's context and waits for it.
// No user asks for such work: it runs as the system.
func every(lc fx.Lifecycle, interval time.Duration, round func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(application.WithPrincipal(context.Background(), application.System))
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				ticker := time.NewTicker(interval)
				defer ticker.Stop()
				for {
					round(ctx)
					select {
					case <-ctx.Done():
						return
					case <-ticker.C:
					}
				}
			}()
			return nil
		},
		OnStop: func(stop context.Context) error {
			cancel()
			select {
			case <-done:
				return nil
			case <-stop.Done():
				return stop.Err()
			}
		},
	})
}
