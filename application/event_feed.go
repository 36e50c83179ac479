package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/limit"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// FeedPage is one read of the change feed; Last is the largest id returned,
// or the position asked after when there is none.
type FeedPage struct {
	Events []ports.Event
	Last   int64
}

// ReadEvents returns the events after the given feed position. Asking again
// with the returned Last yields every event exactly once, in commit order;
// see EventRepository.Record for why.
func (a *App) ReadEvents(ctx context.Context, after int64, pageSize int, types []string) (FeedPage, error) {
	if err := permit(ctx, access.ReadEvents); err != nil {
		return FeedPage{}, err
	}
	if err := limit.CheckFeedAfter(after); err != nil {
		return FeedPage{}, err
	}
	if err := limit.CheckFeedPage(int64(pageSize)); err != nil {
		return FeedPage{}, err
	}
	for _, t := range types {
		if msg := event.CheckType(t); msg != "" {
			return FeedPage{}, errs.InvalidFields(errs.FieldError{Property: "type", Message: msg})
		}
	}
	page := FeedPage{Last: after}
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		purged, err := s.Events().PurgedThrough(ctx)
		if err != nil {
			return err
		}
		if after < purged {
			return errs.E(errs.Gone, "events after %d have been purged", after)
		}
		page.Events, err = s.Events().Feed(ctx, after, pageSize, types)
		return err
	})
	if n := len(page.Events); n > 0 {
		page.Last = page.Events[n-1].ID
	}
	return page, err
}

// PurgeEvents removes events older than retention; a reader asking after
// a purged position is told so (410).
func (a *App) PurgeEvents(ctx context.Context, retention time.Duration) (n int, err error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return n, err
	}
	return a.purgeInChunks(ctx, func(ctx context.Context, s ports.Store) (int, error) {
		return s.Events().Purge(ctx, retention, PurgeChunk)
	})
}
