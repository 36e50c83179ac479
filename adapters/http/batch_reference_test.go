package http

// The batch reader as it was before it read a body in one pass: kept as the
// reference that batch_equivalence_test.go compares the reader with.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
)

type refBatchRequest struct {
	meta       application.BatchMeta
	operations []map[string]json.RawMessage
}

func refReadBatch(w http.ResponseWriter, r *http.Request, endpoint string) (refBatchRequest, error) {
	raw, err := refReadBody(r, w)
	if err != nil {
		return refBatchRequest{}, err
	}
	if raw == nil {
		return refBatchRequest{}, errs.Invalidf("request body is empty: a JSON array of operations is expected")
	}
	if !json.Valid(raw) {
		var v any
		return refBatchRequest{}, errs.Invalidf("malformed JSON: %v", json.Unmarshal(raw, &v))
	}
	if kind := jsonKind(raw); kind != "an array" {
		return refBatchRequest{}, errs.Invalidf("request body must be a JSON array of operations, not %s", kind)
	}
	elements := refSplitArray(raw)
	if len(elements) == 0 {
		return refBatchRequest{}, errs.Invalidf("the batch is empty: send 1 to %d operations", limit.MaxBatchOperations)
	}
	if len(elements) > limit.MaxBatchOperations {
		return refBatchRequest{}, errs.Invalidf("the batch has %d operations; at most %d are allowed", len(elements), limit.MaxBatchOperations)
	}
	ops := make([]map[string]json.RawMessage, len(elements))
	for i, element := range elements {
		if kind := jsonKind(element); kind != "an object" {
			return refBatchRequest{}, errs.Invalidf("operation %d is not a JSON object but %s: every element of the array must be an object", i, kind)
		}
		ops[i] = refSplitObject(element)
	}
	return refBatchRequest{
		meta: application.BatchMeta{
			Key: r.PathValue("idempotencyKey"), Endpoint: endpoint, Fingerprint: fingerprint(raw), User: apiUser(r.Context()),
		},
		operations: ops,
	}, nil
}

func refStrictObject(raw json.RawMessage, allowed ...string) (map[string]json.RawMessage, error) {
	fields := refSplitObject(raw)
	return fields, refOnlyAllowed(fields, allowed)
}

func refOnlyAllowed(fields map[string]json.RawMessage, allowed []string) error {
	for name := range fields {
		if !slices.Contains(allowed, name) {
			return fmt.Errorf("unknown field %q; allowed: %s", name, strings.Join(allowed, ", "))
		}
	}
	return nil
}

func refOperationFields(fields map[string]json.RawMessage, allowed ...string) ([]byte, error) {
	var id []byte
	if v, ok := fields["id"]; ok {
		if bytes.IndexAny(v, " \t\r\n") < 0 {
			id = v
		} else {
			var buf bytes.Buffer
			if json.Compact(&buf, v) == nil {
				id = buf.Bytes()
			}
		}
	}
	return id, refOnlyAllowed(fields, append([]string{"id"}, allowed...))
}

func refInteger(fields map[string]json.RawMessage, name string, required, lenient bool) (int64, error) {
	raw, ok := fields[name]
	if !ok || string(raw) == "null" {
		if required {
			return 0, fmt.Errorf("%s is required", name)
		}
		return 0, nil
	}
	refText := string(raw)
	if lenient && strings.HasPrefix(refText, `"`) {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			refText = strings.TrimSpace(s)
		}
	}
	n, err := strconv.ParseInt(refText, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s must be an integer, not %s", name, string(raw))
	}
	return n, nil
}

func refIdentifier(fields map[string]json.RawMessage, name string, required bool) (int64, error) {
	return refBoundedID(fields, name, required, false)
}

func refBoundedID(fields map[string]json.RawMessage, name string, required, lenient bool) (int64, error) {
	n, err := refInteger(fields, name, required, lenient)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > maxID {
		return 0, fmt.Errorf("%s must be an integer from 1 to %d", name, maxID)
	}
	return n, nil
}

func refText(fields map[string]json.RawMessage, name string) (string, error) {
	raw, ok := fields[name]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		s = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s must be a string, not %s", name, string(raw))
	}
	if s == "" {
		return "", fmt.Errorf("%s must not be empty", name)
	}
	return s, nil
}

func refObject(fields map[string]json.RawMessage, name string, allowed ...string) (map[string]json.RawMessage, bool, error) {
	raw, ok := fields[name]
	if !ok || string(raw) == "null" {
		return nil, false, nil
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, true, fmt.Errorf("%s must be an object", name)
	}
	inner, err := refStrictObject(raw, allowed...)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %v", name, err)
	}
	return inner, true, nil
}

func refLocationSpec(fields map[string]json.RawMessage, prefix string) (stock.LocationSpec, error) {
	var spec stock.LocationSpec
	wh, hasWarehouse, err := refObject(fields, "warehouse", "id", "code")
	if err != nil {
		return spec, prefixed(prefix, err)
	}
	bin, hasBin, err := refObject(fields, "binLocation", "id", "code", "warehouseId", "warehouseCode")
	if err != nil {
		return spec, prefixed(prefix, err)
	}
	if hasWarehouse {
		id, err := refIdentifier(wh, "id", false)
		if err != nil {
			return spec, prefixed(prefix+"warehouse.", err)
		}
		code, err := refText(wh, "code")
		if err != nil {
			return spec, prefixed(prefix+"warehouse.", err)
		}
		spec.Warehouse = &stock.WarehouseSpec{ID: id, Code: code}
	}
	if hasBin {
		id, err := refIdentifier(bin, "id", false)
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		code, err := refText(bin, "code")
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		whID, err := refBoundedID(bin, "warehouseId", false, true)
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		whCode, err := refText(bin, "warehouseCode")
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		spec.BinLocation = &stock.BinLocationSpec{ID: id, Code: code, WarehouseID: whID, WarehouseCode: whCode}
	}
	return spec, nil
}

func refCheckJSONShape(src []byte) error {
	if !json.Valid(src) {
		return nil
	}
	// An object's keys are few: a slice searched in turn costs less than a
	// map per object, until an object has many.
	type frame struct {
		refObject bool
		keys      []string
		many      map[string]struct{}
	}
	stack := make([]frame, 0, 8)
	for i := 0; i < len(src); {
		switch src[i] {
		case '{', '[':
			if len(stack) == maxJSONDepth {
				return errs.Invalidf("request body is nested deeper than %d levels", maxJSONDepth)
			}
			stack = append(stack, frame{refObject: src[i] == '{'})
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			i++
		case '"':
			end := skipString(src, i)
			top := len(stack) - 1
			if top >= 0 && stack[top].refObject {
				if next := skipSpace(src, end); next < len(src) && src[next] == ':' {
					key := refJsonKey(src[i:end])
					f := &stack[top]
					dup := false
					if f.many != nil {
						_, dup = f.many[key]
						f.many[key] = struct{}{}
					} else {
						dup = slices.Contains(f.keys, key)
						f.keys = append(f.keys, key)
						if len(f.keys) > 16 {
							f.many = make(map[string]struct{}, 2*len(f.keys))
							for _, k := range f.keys {
								f.many[k] = struct{}{}
							}
							f.keys = nil
						}
					}
					if dup {
						return errs.Invalidf("malformed JSON: an object holds the key %q twice", key)
					}
				}
			}
			i = end
		default:
			i++
		}
	}
	return nil
}

func refJsonKey(token []byte) string {
	if len(token) >= 2 && strings.IndexByte(string(token), '\\') < 0 {
		return fieldName(token[1 : len(token)-1])
	}
	var s string
	_ = json.Unmarshal(token, &s)
	return s
}

func refOperationTextProblem(fields map[string]json.RawMessage) error {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		raw := fields[name]
		if name == "id" {
			continue
		}
		if property, msg, found := textProblem(raw, name); found {
			return fmt.Errorf("%s %s", property, msg)
		}
	}
	return nil
}

func refReadBody(r *http.Request, w http.ResponseWriter) ([]byte, error) {
	// A body that announces its length is read into one buffer of that
	// size, not grown by doubling.
	var buf bytes.Buffer
	if r.ContentLength > 0 && r.ContentLength <= maxBodyBytes {
		buf.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	body := buf.Bytes()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errTooLarge
		}
		return nil, errs.Invalidf("cannot read request body: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}

	if bytes.IndexByte(body, 0) >= 0 || bytes.Contains(body, []byte(`\u0000`)) || bytes.Contains(body, []byte(`\U0000`)) {
		return nil, errs.Invalidf("request body must not contain the NUL character (\\u0000)")
	}
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return nil, errUnsupportedMedia
	}
	if err := refCheckJSONShape(body); err != nil {
		return nil, err
	}
	return body, nil
}

func refSplitArray(src []byte) []json.RawMessage {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '[' {
		return nil
	}
	var out []json.RawMessage
	for j := skipSpace(src, i+1); j < len(src) && src[j] != ']'; {
		end := skipValue(src, j)
		out = append(out, src[j:end])
		j = skipSpace(src, end)
		if j < len(src) && src[j] == ',' {
			j = skipSpace(src, j+1)
		}
	}
	return out
}

func refSplitObject(src []byte) map[string]json.RawMessage {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		return nil
	}
	out := make(map[string]json.RawMessage, 6)
	for j := skipSpace(src, i+1); j < len(src) && src[j] != '}'; {
		keyEnd := skipString(src, j)
		key := fieldName(src[j+1 : keyEnd-1])
		if strings.IndexByte(key, '\\') >= 0 {
			_ = json.Unmarshal(src[j:keyEnd], &key)
		}
		valueStart := skipSpace(src, skipSpace(src, keyEnd)+1)
		valueEnd := skipValue(src, valueStart)
		out[key] = src[valueStart:valueEnd]
		j = skipSpace(src, valueEnd)
		if j < len(src) && src[j] == ',' {
			j = skipSpace(src, j+1)
		}
	}
	return out
}

func refParseSet(fields map[string]json.RawMessage) (stock.Operation, error) {
	article, quantity, at, err := refQuantityAt(fields, "articleDetailId")
	return stock.Set{ArticleDetailID: article, At: at, Quantity: quantity}, err
}

func refParseChange(fields map[string]json.RawMessage) (stock.Operation, error) {
	article, quantity, at, err := refQuantityAt(fields, "articleDetailId")
	return stock.Change{ArticleDetailID: article, At: at, Quantity: quantity}, err
}

func refQuantityAt(fields map[string]json.RawMessage, idField string) (id int64, quantity int, at stock.LocationSpec, err error) {
	if id, err = refIdentifier(fields, idField, true); err != nil {
		return 0, 0, at, err
	}
	if quantity, err = refQuantityField(fields); err != nil {
		return 0, 0, at, err
	}
	at, err = refLocationSpec(fields, "")
	return id, quantity, at, err
}

func refQuantityField(fields map[string]json.RawMessage) (int, error) {
	q, err := refInteger(fields, "quantity", true, false)
	if err != nil {
		return 0, err
	}
	return stock.ParseQuantity("quantity", q)
}

func refParseRelocation(fields map[string]json.RawMessage) (stock.Operation, error) {
	var op stock.Relocate
	var err error
	if op.ArticleDetailID, err = refIdentifier(fields, "articleDetailId", true); err != nil {
		return op, err
	}
	if string(fields["quantity"]) == `"all"` {
		op.All = true
	} else {
		if _, err := refInteger(fields, "quantity", true, false); err != nil {
			return op, fmt.Errorf(`quantity must be a positive integer or "all", not %s`, string(fields["quantity"]))
		}
		if op.Quantity, err = refQuantityField(fields); err != nil {
			return op, err
		}
	}
	if op.From, err = refRelocationSide(fields, "source"); err != nil {
		return op, err
	}
	op.To, err = refRelocationSide(fields, "destination")
	return op, err
}

func refRelocationSide(fields map[string]json.RawMessage, name string) (stock.LocationSpec, error) {
	inner, present, err := refObject(fields, name, "warehouse", "binLocation")
	if err != nil {
		return stock.LocationSpec{}, err
	}
	if !present {
		return stock.LocationSpec{}, fmt.Errorf("%s is required", name)
	}
	return refLocationSpec(inner, name+".")
}
