package application

import (
	"context"
	"slices"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/ports"
)

// CountBin records what was found on one bin of an Open count, replacing
// what an earlier counting of that bin recorded (count.Count.CountBin).
func (a *App) CountBin(ctx context.Context, countID, binID int64, lines []count.Line) error {
	if err := permit(ctx, access.WriteStock); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		c, err := s.Counts().Get(ctx, countID)
		if err != nil {
			return err
		}
		known, err := catalogOf(ctx, s, lines)
		if err != nil {
			return err
		}
		if err := c.CountBin(binID, lines, known); err != nil {
			return err
		}
		return s.Counts().Save(ctx, c)
	})
}

// catalogOf tells which products of the lines exist and which of them are
// lot-tracked, read in lists of at most limit.MaxInValues.
func catalogOf(ctx context.Context, s ports.Store, lines []count.Line) (count.Known, error) {
	ids := make([]int64, 0, len(lines))
	for _, l := range lines {
		if l.ArticleDetailID > 0 {
			ids = append(ids, l.ArticleDetailID)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	type fact struct{ tracked bool }
	facts := map[int64]fact{}
	for start := 0; start < len(ids); start += limit.MaxInValues {
		chunk := ids[start:min(start+limit.MaxInValues, len(ids))]
		values := make([]any, len(chunk))
		for i, id := range chunk {
			values[i] = id
		}
		p, err := s.ArticleDetails().List(ctx, ports.ListQuery{Limit: len(chunk),
			Filters: []ports.Filter{{Property: "articleDetail.id", Expression: ports.ExprIn, Values: values}}})
		if err != nil {
			return nil, err
		}
		for _, a := range p.Items {
			facts[a.ID()] = fact{tracked: a.LotTracked()}
		}
	}
	return func(article int64) (bool, bool) {
		f, ok := facts[article]
		return ok, f.tracked
	}, nil
}
