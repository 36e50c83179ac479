package bunstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/ports"
)

// columns maps a resource's list properties to SQL expressions; every
// property of the resource's ports.ListFields must be here.
type columns map[string]string

// applyList adds the filters and the order of q to sel. Conditions are folded
// left to right, `(previous) AND|OR next`, as Shopware's query builder does.
// Values are handed to bun as arguments, never spliced into the SQL text.
func applyList(sel *bun.SelectQuery, q ports.ListQuery, cols columns, fields ports.ListFields) (*bun.SelectQuery, error) {
	var where strings.Builder
	var args []any
	for i, f := range q.Filters {
		col, ok := cols[f.Property]
		if !ok {
			return nil, fmt.Errorf("list: no column for %q", f.Property)
		}
		cond, condArgs := condition(col, fields[f.Property], f)
		if i == 0 {
			where.WriteString(cond)
		} else {
			joined := "(" + where.String() + ") AND " + cond
			if f.Or {
				joined = "(" + where.String() + ") OR " + cond
			}
			where.Reset()
			where.WriteString(joined)
		}
		args = append(args, condArgs...)
	}
	if where.Len() > 0 {
		sel = sel.Where(where.String(), args...)
	}
	return sel, nil
}

func order(sel *bun.SelectQuery, q ports.ListQuery, cols columns, idColumn string) *bun.SelectQuery {
	for _, s := range q.Sorts {
		dir := " ASC"
		if s.Descending {
			dir = " DESC"
		}
		sel = sel.OrderExpr(cols[s.Property] + dir)
	}
	return sel.OrderExpr(idColumn + " ASC")
}

func condition(col string, typ ports.FieldType, f ports.Filter) (string, []any) {
	expr := f.Expression
	if expr == "" {
		expr = ports.ExprEqual
		if typ == ports.TextField {
			expr = ports.ExprLike
		}
	}
	switch expr {
	case ports.ExprIsNull, ports.ExprIsNotNull:
		return col + " " + expr, nil
	case ports.ExprIn, ports.ExprNotIn:
		if len(f.Values) == 0 {
			if expr == ports.ExprIn {
				return "1 = 0", nil
			}
			return "1 = 1", nil
		}
		return col + " " + expr + " (?)", []any{bun.List(f.Values)}
	case ports.ExprLike, ports.ExprNotLike:
		if typ == ports.TextField {
			return "LOWER(" + col + ") " + expr + " LOWER(?)", []any{f.Values[0]}
		}
		return "CAST(" + col + " AS TEXT) " + expr + " ?", []any{fmt.Sprint(f.Values[0])}
	default:
		return col + " " + expr + " ?", []any{f.Values[0]}
	}
}

// page runs a list query: the matching rows of one page and the count of all.
func page[T any](ctx context.Context, idb bun.IDB, rows *[]T, q ports.ListQuery, cols columns, fields ports.ListFields, idColumn string, base func(*bun.SelectQuery) *bun.SelectQuery) (int, error) {
	return pageCounted(ctx, idb, rows, q, cols, fields, idColumn, base, "")
}

// pageCounted is page over a table whose rows are counted as they come
// and go (keptCount): a list without filters takes its total from there
// instead of counting the table.
//
// After is a condition on the id, so the page after an id starts in the id
// index (or in a filter's index, which holds the id too) wherever it lies.
// Past the first rows of that, Start finds the page's ids first and only
// then reads their rows: the skipped rows are walked in an index alone,
// instead of each being read from the table.
func pageCounted[T any](ctx context.Context, idb bun.IDB, rows *[]T, q ports.ListQuery, cols columns, fields ports.ListFields, idColumn string, base func(*bun.SelectQuery) *bun.SelectQuery, counted string) (int, error) {
	sel, err := applyList(base(idb.NewSelect().Model(rows)), q, cols, fields)
	if err != nil {
		return 0, err
	}
	var total int
	if counted != "" && len(q.Filters) == 0 {
		total, err = keptCount(ctx, idb, counted)
	} else {
		var n int64
		n, err = sel.Count(ctx)
		total = int(n)
	}
	if err != nil {
		return 0, err
	}
	if total == 0 || q.Start >= total {
		return total, nil
	}
	if q.After > 0 {
		sel = sel.Where(idColumn+" > ?", q.After)
	}
	if q.Start == 0 {
		return total, order(sel, q, cols, idColumn).Limit(int64(q.Limit)).Scan(ctx)
	}
	ids, err := applyList(base(idb.NewSelect().Model(rows).ColumnExpr(idColumn)), q, cols, fields)
	if err != nil {
		return 0, err
	}
	if q.After > 0 {
		ids = ids.Where(idColumn+" > ?", q.After)
	}
	ids = order(ids, q, cols, idColumn).Offset(int64(q.Start)).Limit(int64(q.Limit))
	outer := order(base(idb.NewSelect().Model(rows)).Where(idColumn+" IN (?)", ids), q, cols, idColumn)
	return total, outer.Scan(ctx)
}

// tuples renders rows as a list of SQL tuples, for `(a, b) IN (?)`.
func tuples(rows [][]any) bun.ListValues {
	out := make([]bun.TupleValues, len(rows))
	for i, r := range rows {
		out[i] = bun.Tuple(r)
	}
	return bun.List(out)
}
