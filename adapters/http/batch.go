package http

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
)

// renderBatch is the batch result of spec 2.5; its bytes are stored and
// replayed as they are.
func renderBatch(r application.BatchResult) ([]byte, error) {
	return appendBatchResult(make([]byte, 0, 64+40*len(r.Results)), r), nil
}

// batchRequest is a batch body read as a whole: its operations parsed one
// level deep, so that a broken operation fails alone.
type batchRequest struct {
	meta       application.BatchMeta
	operations []batchOperation
	arena      *batchArena
}

// batchArena hands out what the operations of one batch point to, location
// specs and texts, from a few shared allocations instead of one each. A nil
// arena allocates each, for a single location.
type batchArena struct {
	operations int // how many, for sizing
	bins       []stock.BinLocationSpec
	warehouses []stock.WarehouseSpec
	// Texts are appended to a builder, whose String shares its buffer:
	// what is written stays as it is, and a full buffer is left to the
	// texts that point into it, not grown.
	texts strings.Builder
}

const arenaTextBytes = 4096

func (a *batchArena) bin(spec stock.BinLocationSpec) *stock.BinLocationSpec {
	if a == nil {
		p := new(stock.BinLocationSpec)
		*p = spec
		return p
	}
	if len(a.bins) == cap(a.bins) {
		a.bins = make([]stock.BinLocationSpec, 0, max(a.operations, 1))
	}
	a.bins = append(a.bins, spec)
	return &a.bins[len(a.bins)-1]
}

func (a *batchArena) warehouse(spec stock.WarehouseSpec) *stock.WarehouseSpec {
	if a == nil {
		p := new(stock.WarehouseSpec)
		*p = spec
		return p
	}
	if len(a.warehouses) == cap(a.warehouses) {
		a.warehouses = make([]stock.WarehouseSpec, 0, max(a.operations, 1))
	}
	a.warehouses = append(a.warehouses, spec)
	return &a.warehouses[len(a.warehouses)-1]
}

func (a *batchArena) text(b []byte) string {
	if a == nil {
		return string(b)
	}
	if a.texts.Cap()-a.texts.Len() < len(b) {
		a.texts = strings.Builder{}
		a.texts.Grow(max(arenaTextBytes, len(b)))
	}
	start := a.texts.Len()
	a.texts.Write(b)
	return a.texts.String()[start:]
}

// batchOperation is one element of a batch: its members, and whether every
// string in it is plain printable ASCII (which spares the text check).
type batchOperation struct {
	fields    jsonFields
	plainText bool
}

// check reads what every operation shares: its `id` (see operationFields),
// that it has only allowed fields, and that its strings pass the text check.
func (op batchOperation) check(allowed []string) ([]byte, error) {
	id, err := operationFields(op.fields, allowed...)
	if err == nil && !op.plainText {
		err = operationTextProblem(op.fields)
	}
	return id, err
}

// readBatch checks what makes a batch unreadable as a whole (400 before
// anything runs): not a JSON array of objects, empty, or too long. One pass
// over the body checks it as readBody and json.Valid would and splits it.
func readBatch(w http.ResponseWriter, r *http.Request, endpoint string) (batchRequest, error) {
	raw, err := readRawBody(r, w)
	if err != nil {
		return batchRequest{}, err
	}
	if raw == nil {
		return batchRequest{}, errs.Invalidf("request body is empty: a JSON array of operations is expected")
	}
	canonical := newJCS(raw)
	defer canonical.release()
	scan := scanBatch(raw, limit.MaxBatchOperations, canonical)
	// A fault of JSON anywhere outranks one of shape, which ends the scan.
	if scan.invalid || scan.shape != nil && !json.Valid(raw) {
		var v any
		return batchRequest{}, errs.Invalidf("malformed JSON: %v", json.Unmarshal(raw, &v))
	}
	if scan.shape != nil {
		return batchRequest{}, scan.shape
	}
	if kind := jsonKind(raw); kind != "an array" {
		return batchRequest{}, errs.Invalidf("request body must be a JSON array of operations, not %s", kind)
	}
	if err := limit.CheckBatchSize(scan.elements); err != nil {
		return batchRequest{}, err
	}
	if scan.notObject >= 0 {
		return batchRequest{}, errs.Invalidf("operation %d is not a JSON object but %s: every element of the array must be an object", scan.notObject, scan.notObjectKind)
	}
	ops := make([]batchOperation, len(scan.ops))
	for i, op := range scan.ops {
		ops[i] = batchOperation{fields: scan.fields[op.first:op.end:op.end], plainText: op.plainText}
	}
	return batchRequest{
		meta: application.BatchMeta{
			Key: r.PathValue("idempotencyKey"), Endpoint: endpoint, Fingerprint: sumText(canonical.result()), User: apiUser(r.Context()),
		},
		operations: ops,
		arena:      &batchArena{operations: len(ops)},
	}, nil
}

// fingerprint hashes the body as canonical JSON (RFC 8785), so that a retry
// of the same batch is recognised whatever its key order, white space,
// number forms (1.0, 1e0) and string escapes.
func fingerprint(raw []byte) string {
	sum := canonicalSum(raw)
	return hex.EncodeToString(sum[:])
}

// sumText is the fingerprint of a canonical form.
func sumText(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// writeBatch answers 200 with the batch result, fresh or replayed.
func writeBatch(w http.ResponseWriter, out application.BatchOutcome) {
	if out.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeRaw(w, http.StatusOK, out.Body)
}

// strictObject appends the members of a JSON object (part of an already
// validated body), whose fields must all be allowed, to dst.
func strictObject(dst jsonFields, raw json.RawMessage, allowed ...string) (jsonFields, error) {
	fields := splitObject(dst, raw)
	return fields, onlyAllowed(fields, "", allowed)
}

// jsonKind names the type of a valid JSON value, for messages.
func jsonKind(raw []byte) string {
	i := skipSpace(raw, 0)
	if i >= len(raw) {
		return "nothing"
	}
	switch raw[i] {
	case '[':
		return "an array"
	case '{':
		return "an object"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// onlyAllowed faults the first field that is neither extra (when not
// empty) nor in allowed.
func onlyAllowed(fields jsonFields, extra string, allowed []string) error {
	for _, f := range fields {
		if (extra == "" || f.name != extra) && !slices.Contains(allowed, f.name) {
			names := allowed
			if extra != "" {
				names = append([]string{extra}, allowed...)
			}
			return fmt.Errorf("unknown field %q; allowed: %s", f.name, strings.Join(names, ", "))
		}
	}
	return nil
}

// operationFields checks one operation's fields and returns its `id`, when
// present, as compact raw JSON (even when the rest is wrong, so the failed
// result still carries it).
func operationFields(fields jsonFields, allowed ...string) ([]byte, error) {
	var id []byte
	if v, ok := fields.get("id"); ok {
		if bytes.IndexAny(v, " \t\r\n") < 0 {
			id = v // already compact: a slice of the body, no copy
		} else {
			var buf bytes.Buffer
			if json.Compact(&buf, v) == nil {
				id = buf.Bytes()
			}
		}
	}
	return id, onlyAllowed(fields, "id", allowed)
}

// integer reads a JSON integer; numeric strings are accepted only where
// lenient is set (the sample sends warehouseId as a string).
func integer(fields jsonFields, name string, required, lenient bool) (int64, error) {
	raw, ok := fields.get(name)
	if !ok || string(raw) == "null" {
		if required {
			return 0, fmt.Errorf("%s is required", name)
		}
		return 0, nil
	}
	if n, ok := plainInteger(raw); ok {
		return n, nil
	}
	text := string(raw)
	if lenient && strings.HasPrefix(text, `"`) {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			text = strings.TrimSpace(s)
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s must be an integer, not %s", name, string(raw))
	}
	return n, nil
}

// plainInteger reads the usual integer, -?[0-9]{1,18}, without the detour
// through a string; ok is false for anything else.
func plainInteger(raw []byte) (n int64, ok bool) {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if raw[0] == '-' {
		n = -n
	}
	return n, true
}

// identifier reads an id: 0 when absent (and not required), else an
// integer no larger than maxID, so that it names something storable; whether
// it is positive and names something is for the domain to say.
func identifier(fields jsonFields, name string, required bool) (int64, error) {
	return boundedID(fields, name, required, false)
}

func boundedID(fields jsonFields, name string, required, lenient bool) (int64, error) {
	n, err := integer(fields, name, required, lenient)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > maxID {
		return 0, fmt.Errorf("%s must be an integer from 1 to %d", name, maxID)
	}
	return n, nil
}

func text(a *batchArena, fields jsonFields, name string) (string, error) {
	raw, ok := fields.get(name)
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		s = a.text(raw[1 : len(raw)-1]) // no escapes: the bytes are the string
	} else {
		var err error
		if s, err = decodeString(raw); err != nil {
			return "", fmt.Errorf("%s must be a string, not %s", name, string(raw))
		}
	}
	if s == "" {
		return "", fmt.Errorf("%s must not be empty", name)
	}
	return s, nil
}

// decodeString is json.Unmarshal into a string, apart so that the string
// text reads without escapes does not go to the heap first.
func decodeString(raw []byte) (string, error) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// object appends the members of the object field name to dst; present is
// false when there is no such field or it is null.
func object(dst, fields jsonFields, name string, allowed ...string) (inner jsonFields, present bool, err error) {
	raw, ok := fields.get(name)
	if !ok || string(raw) == "null" {
		return dst, false, nil
	}
	if len(raw) == 0 || raw[0] != '{' {
		return dst, true, fmt.Errorf("%s must be an object", name)
	}
	inner, err = strictObject(dst, raw, allowed...)
	if err != nil {
		return dst, true, fmt.Errorf("%s: %v", name, err)
	}
	return inner, true, nil
}

// locationSpec reads `warehouse` or `binLocation` (spec 2.6) from fields.
func locationSpec(a *batchArena, fields jsonFields, prefix string) (stock.LocationSpec, error) {
	var spec stock.LocationSpec
	var whFields, binFields [4]jsonField // each object's members, without allocating
	wh, hasWarehouse, err := object(whFields[:0], fields, "warehouse", "id", "code")
	if err != nil {
		return spec, prefixed(prefix, err)
	}
	bin, hasBin, err := object(binFields[:0], fields, "binLocation", "id", "code", "warehouseId", "warehouseCode")
	if err != nil {
		return spec, prefixed(prefix, err)
	}
	if hasWarehouse {
		id, err := identifier(wh, "id", false)
		if err != nil {
			return spec, prefixed(prefix+"warehouse.", err)
		}
		code, err := text(a, wh, "code")
		if err != nil {
			return spec, prefixed(prefix+"warehouse.", err)
		}
		spec.Warehouse = a.warehouse(stock.WarehouseSpec{ID: id, Code: code})
	}
	if hasBin {
		id, err := identifier(bin, "id", false)
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		code, err := text(a, bin, "code")
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		whID, err := boundedID(bin, "warehouseId", false, true)
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		whCode, err := text(a, bin, "warehouseCode")
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		spec.BinLocation = a.bin(stock.BinLocationSpec{ID: id, Code: code, WarehouseID: whID, WarehouseCode: whCode})
	}
	return spec, nil
}

func prefixed(prefix string, err error) error {
	if prefix == "" {
		return err
	}
	return fmt.Errorf("%s%v", prefix, err)
}

// lotSpec reads the optional `lot` of an operation or line (extensions B):
// `{"number", "bestBefore"?}`, where bestBefore absent, null and a date
// differ (see stock.LotSpec).
func lotSpec(fields jsonFields) (*stock.LotSpec, error) {
	var members [2]jsonField
	inner, present, err := object(members[:0], fields, "lot", "number", "bestBefore")
	if err != nil || !present {
		return nil, err
	}
	raw, ok := inner.get("number")
	if !ok || string(raw) == "null" {
		return nil, fmt.Errorf("lot.number is required")
	}
	number, err := decodeString(raw)
	if err != nil {
		return nil, fmt.Errorf("lot.number must be a string, not %s", string(raw))
	}
	spec := &stock.LotSpec{Number: number}
	raw, spec.BestBeforeGiven = inner.get("bestBefore")
	if spec.BestBeforeGiven && string(raw) != "null" {
		s, err := decodeString(raw)
		var d time.Time
		if err == nil {
			d, err = stock.ParseDate(s)
		}
		if err != nil {
			return nil, fmt.Errorf("lot.bestBefore must be a date YYYY-MM-DD or null, not %s", string(raw))
		}
		spec.BestBefore = &d
	}
	return spec, nil
}

// lineLot reads the `lot` of a line of a return or a receipt; property is
// the line's (`details[0]`).
func lineLot(raw json.RawMessage, property string) (*stock.LotSpec, error) {
	if raw == nil {
		return nil, nil
	}
	lot, err := lotSpec(jsonFields{{name: "lot", value: raw}})
	if err != nil {
		return nil, errs.Invalidf("%s.%v", property, err).On(property + ".lot")
	}
	return lot, nil
}
