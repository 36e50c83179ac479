package http

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

const (
	defaultLimit = limit.DefaultListLimit
	maxLimit     = limit.MaxListLimit
)

var (
	listKey = regexp.MustCompile(`^(filter|sort)\[(\d+)\]\[(\w+)\](?:\[(\d*)\])?$`)

	expressions = []string{
		ports.ExprEqual, ports.ExprNotEqual, ports.ExprLess, ports.ExprLessEqual, ports.ExprGreater,
		ports.ExprGreaterEqual, ports.ExprLike, ports.ExprNotLike, ports.ExprIn, ports.ExprNotIn,
		ports.ExprIsNull, ports.ExprIsNotNull,
	}
)

type rawCondition struct {
	params map[string]string
	values []string // filter[i][value][] and filter[i][value][j]
	index  int
}

// parseList reads start, limit, after, filter and sort (Shopware's
// indexed-array form) and checks every property against the resource's
// fields.
func parseList(query url.Values, fields ports.ListFields) (ports.ListQuery, error) {
	q := ports.ListQuery{Start: 0, Limit: defaultLimit}
	var err error
	if q.Start, err = intParam(query, "start", 0, 0, int(^uint32(0)>>1)); err != nil {
		return q, err
	}
	if q.Limit, err = intParam(query, "limit", defaultLimit, 1, maxLimit); err != nil {
		return q, err
	}
	filters, sorts := map[int]*rawCondition{}, map[int]*rawCondition{}
	for key, vals := range query {
		if key == "start" || key == "limit" || key == "after" {
			continue
		}
		m := listKey.FindStringSubmatch(key)
		if m == nil {
			if strings.HasPrefix(key, "filter") || strings.HasPrefix(key, "sort") {
				return q, errs.Invalidf("cannot read list parameter %q: use filter[0][property]=…&filter[0][value]=… and sort[0][property]=…&sort[0][direction]=ASC|DESC", key).
					On(key)
			}
			continue // other parameters (useNumberAsId, …) belong to the endpoint
		}
		idx, _ := strconv.Atoi(m[2])
		target := filters
		if m[1] == "sort" {
			target = sorts
		}
		c := target[idx]
		if c == nil {
			c = &rawCondition{params: map[string]string{}, index: idx}
			target[idx] = c
		}
		if m[4] != "" || strings.HasSuffix(key, "[]") {
			if m[3] != "value" {
				return q, errs.Invalidf("list parameter %q takes one value", key).On(key)
			}
			c.values = append(c.values, vals...)
			continue
		}
		c.params[m[3]] = vals[len(vals)-1]
	}
	if err := limit.CheckListShape(len(filters), len(sorts)); err != nil {
		return q, err
	}
	for _, c := range ordered(filters) {
		f, err := parseFilter(c, fields)
		if err != nil {
			return q, err
		}
		q.Filters = append(q.Filters, f)
	}
	for _, c := range ordered(sorts) {
		s, err := parseSort(c, fields)
		if err != nil {
			return q, err
		}
		q.Sorts = append(q.Sorts, s)
	}
	return q, parseAfter(query, &q)
}

func ordered(m map[int]*rawCondition) []*rawCondition {
	out := make([]*rawCondition, 0, len(m))
	for _, c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out
}

func intParam(query url.Values, name string, def, lo, hi int) (int, error) {
	raw := query.Get(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, errs.InvalidFields(errs.FieldError{Property: name, Message: fmt.Sprintf("must be an integer from %d to %d", lo, hi)})
	}
	return n, nil
}

func allowedProperties(fields ports.ListFields) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func checkProperty(kind string, c *rawCondition, fields ports.ListFields) (string, ports.FieldType, error) {
	allowed := []string{"property", "value", "expression", "operator"}
	if kind == "sort" {
		allowed = []string{"property", "direction"}
	}
	for key := range c.params {
		if !slices.Contains(allowed, key) {
			return "", 0, errs.Invalidf("unknown list parameter %s[%d][%s]; allowed: %s", kind, c.index, key, strings.Join(allowed, ", ")).
				On(fmt.Sprintf("%s[%d][%s]", kind, c.index, key))
		}
	}
	prop, ok := c.params["property"]
	if !ok || prop == "" {
		return "", 0, errs.Invalidf("%s[%d][property] is required", kind, c.index).On(fmt.Sprintf("%s[%d][property]", kind, c.index))
	}
	typ, ok := fields[prop]
	if !ok {
		return "", 0, errs.Invalidf("unknown %s property %q; allowed: %s", kind, prop, allowedProperties(fields)).
			On(fmt.Sprintf("%s[%d][property]", kind, c.index))
	}
	return prop, typ, nil
}

func parseSort(c *rawCondition, fields ports.ListFields) (ports.Sort, error) {
	if len(c.values) > 0 {
		return ports.Sort{}, errs.Invalidf("unknown list parameter sort[%d][value]", c.index).On(fmt.Sprintf("sort[%d][value]", c.index))
	}
	prop, _, err := checkProperty("sort", c, fields)
	if err != nil {
		return ports.Sort{}, err
	}
	switch strings.ToUpper(c.params["direction"]) {
	case "", "ASC":
		return ports.Sort{Property: prop}, nil
	case "DESC":
		return ports.Sort{Property: prop, Descending: true}, nil
	}
	return ports.Sort{}, errs.Invalidf("sort[%d][direction] must be ASC or DESC, not %q", c.index, c.params["direction"]).
		On(fmt.Sprintf("sort[%d][direction]", c.index))
}

func parseFilter(c *rawCondition, fields ports.ListFields) (ports.Filter, error) {
	prop, typ, err := checkProperty("filter", c, fields)
	if err != nil {
		return ports.Filter{}, err
	}
	f := ports.Filter{Property: prop}
	if op, ok := c.params["operator"]; ok {
		switch strings.ToLower(op) {
		case "1", "true":
			f.Or = true
		case "", "0", "false":
		default:
			return f, errs.Invalidf("filter[%d][operator] must be 1, true, 0 or false, not %q", c.index, op).On(fmt.Sprintf("filter[%d][operator]", c.index))
		}
	}
	if expr, ok := c.params["expression"]; ok && strings.TrimSpace(expr) != "" {
		norm := strings.ToUpper(strings.Join(strings.Fields(expr), " "))
		if norm == "!=" {
			norm = ports.ExprNotEqual
		}
		if !slices.Contains(expressions, norm) {
			return f, errs.Invalidf("unknown filter[%d][expression] %q; allowed: %s", c.index, expr, strings.Join(expressions, ", ")).
				On(fmt.Sprintf("filter[%d][expression]", c.index))
		}
		f.Expression = norm
	}
	raw := c.values
	if v, ok := c.params["value"]; ok {
		raw = append(raw, v)
	}
	for _, v := range raw {
		if strings.IndexByte(v, 0) >= 0 {
			return f, errs.Invalidf("filter[%d][value] must not contain the NUL character", c.index).On(valueParameter(c.index))
		}
	}
	if (f.Expression == ports.ExprLike || f.Expression == ports.ExprNotLike) && typ != ports.TextField {
		return f, errs.Invalidf("filter[%d][expression] %s works on text properties only; %q is not one", c.index, f.Expression, prop).
			On(fmt.Sprintf("filter[%d][expression]", c.index))
	}
	switch f.Expression {
	case ports.ExprIsNull, ports.ExprIsNotNull:
		return f, nil
	case ports.ExprIn, ports.ExprNotIn:
		var items []string
		for _, v := range raw {
			for _, item := range strings.Split(v, ",") {
				if item = strings.TrimSpace(item); item != "" {
					items = append(items, item)
				}
			}
		}
		if err := limit.CheckInValues(c.index, f.Expression, len(items)); err != nil {
			return f, err
		}
		for _, item := range items {
			v, err := filterValue(typ, item, c.index)
			if err == nil {
				err = checkIDValue(prop, v, c.index)
			}
			if err != nil {
				return f, err
			}
			f.Values = append(f.Values, v)
		}
		return f, nil
	}
	if len(raw) != 1 {
		return f, errs.Invalidf("filter[%d][value] is required and takes one value", c.index).On(valueParameter(c.index))
	}
	if f.Expression == ports.ExprLike || f.Expression == ports.ExprNotLike || (f.Expression == "" && typ == ports.TextField) {
		f.Values = []any{raw[0]}
		return f, nil
	}
	v, err := filterValue(typ, raw[0], c.index)
	if err == nil {
		err = checkIDValue(prop, v, c.index)
	}
	if err != nil {
		return f, err
	}
	f.Values = []any{v}
	return f, nil
}

// isIDProperty tells the properties that hold ids (`order.id`,
// `binLocation.warehouseId`), whose values are 1..2147483647.
func isIDProperty(prop string) bool {
	last := prop[strings.LastIndexByte(prop, '.')+1:]
	return last == "id" || strings.HasSuffix(last, "Id")
}

func checkIDValue(prop string, v any, index int) error {
	n, isInt := v.(int64)
	if !isInt || !isIDProperty(prop) || (n >= 1 && n <= maxID) {
		return nil
	}
	return errs.Invalidf("filter[%d][value] must be an id from 1 to %d, not %d", index, maxID, n).On(valueParameter(index))
}

var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05-0700", "2006-01-02T15:04:05", "2006-01-02"}

func filterValue(typ ports.FieldType, raw string, index int) (any, error) {
	switch typ {
	case ports.IntField:
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, errs.Invalidf("filter[%d][value] must be an integer, not %q", index, raw).On(valueParameter(index))
		}
		return n, nil
	case ports.BoolField:
		switch strings.ToLower(raw) {
		case "1", "true":
			return true, nil
		case "0", "false":
			return false, nil
		}
		return nil, errs.Invalidf("filter[%d][value] must be true, false, 1 or 0, not %q", index, raw).On(valueParameter(index))
	case ports.TimeField:
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, raw); err == nil {
				return t.UTC(), nil
			}
		}
		return nil, errs.Invalidf("filter[%d][value] must be a timestamp like 2026-01-31T12:00:00+0000, not %q", index, raw).On(valueParameter(index))
	case ports.DateField:
		// Kept as its text, which both databases compare as the date.
		t, err := stock.ParseDate(raw)
		if err != nil {
			return nil, errs.Invalidf("filter[%d][value] must be a date like 2026-01-31, not %q", index, raw).On(valueParameter(index))
		}
		return t.Format(stock.DateLayout), nil
	}
	return raw, nil
}

// valueParameter names the value of filter index, the parameter an error
// about that value points at.
func valueParameter(index int) string { return fmt.Sprintf("filter[%d][value]", index) }
