package application

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// MaxFeedLimit is the most events one read of the change feed returns.
const MaxFeedLimit = 1000

// FeedPage is one read of the change feed; Last is the largest id returned,
// or the position asked after when there is none.
type FeedPage struct {
	Events []ports.Event
	Last   int64
}

// ReadEvents returns the events after the given feed position (extensions
// E2). Asking again with the returned Last yields every event exactly once,
// in commit order; see EventRepository.Record for why.
func (a *App) ReadEvents(ctx context.Context, after int64, limit int, types []string) (FeedPage, error) {
	if err := permit(ctx, access.ReadEvents); err != nil {
		return FeedPage{}, err
	}
	if after < 0 {
		return FeedPage{}, errs.InvalidFields(errs.FieldError{Property: "after", Message: "must be an integer of at least 0"})
	}
	if limit < 1 || limit > MaxFeedLimit {
		return FeedPage{}, errs.InvalidFields(errs.FieldError{Property: "limit", Message: "must be an integer from 1 to 1000"})
	}
	for _, t := range types {
		if !slices.Contains(event.Types, t) {
			return FeedPage{}, errs.InvalidFields(errs.FieldError{Property: "type", Message: "unknown event type \"" + t + "\"; allowed: " + strings.Join(event.Types, ", ")})
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
		page.Events, err = s.Events().Feed(ctx, after, limit, types)
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
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		n, err = s.Events().Purge(ctx, retention)
		return err
	})
	return n, err
}
