package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
)

// batchResultJSON is the answer to a batch. Its bytes are stored and
// replayed as they are, so they stay the same from one release to the
// next: encoding/json's, HTML characters escaped.
type batchResultJSON struct {
	Success        bool                  `json:"success"`
	Message        string                `json:"message,omitempty"`
	IdempotencyKey string                `json:"idempotencyKey"`
	CreatedAt      string                `json:"createdAt"`
	Results        []operationResultJSON `json:"results"`
}

type operationResultJSON struct {
	OperationID json.RawMessage `json:"operationId,omitempty"`
	Success     bool            `json:"success"`
	Message     string          `json:"message,omitempty"`
}

// renderBatch writes a batch's result for the idempotency store to keep.
func renderBatch(r application.BatchResult) ([]byte, error) {
	out := batchResultJSON{
		Success: r.Success, Message: r.Message, IdempotencyKey: r.IdempotencyKey,
		CreatedAt: r.CreatedAt.UTC().Format(timeLayout), Results: make([]operationResultJSON, len(r.Results)),
	}
	for i, res := range r.Results {
		out.Results[i] = operationResultJSON{OperationID: res.OperationID, Success: res.Success, Message: res.Message}
	}
	return json.Marshal(out)
}

// batchRequest is a batch body read as a whole: its operations split into
// their members, so that a broken operation fails alone.
type batchRequest struct {
	meta       application.BatchMeta
	operations []batchOperation
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
// anything runs): not JSON, nested too deeply or with a key twice, not a
// JSON array of objects, empty, or too long.
func readBatch(w http.ResponseWriter, r *http.Request, endpoint string) (batchRequest, error) {
	raw, err := readRawBody(r, w)
	if err != nil {
		return batchRequest{}, err
	}
	if raw == nil {
		return batchRequest{}, errs.Invalidf("request body is empty: a JSON array of operations is expected")
	}
	// Shape first: canonicalising costs the size times the depth. A fault
	// of syntax the shape check meets is canonicalForm's to report.
	if fault, _ := shapeFault(raw); fault != nil {
		return batchRequest{}, bodyFault(raw, fault)
	}
	canonical, err := canonicalForm(raw)
	if err != nil {
		return batchRequest{}, malformed(err)
	}
	if kind := jsonKind(raw); kind != "an array" {
		return batchRequest{}, errs.Invalidf("request body must be a JSON array of operations, not %s", kind)
	}
	split, err := splitBatch(raw, limit.MaxBatchOperations)
	if err != nil {
		return batchRequest{}, malformed(err)
	}
	if err := limit.CheckBatchSize(split.elements); err != nil {
		return batchRequest{}, err
	}
	if split.notObject >= 0 {
		return batchRequest{}, errs.Invalidf("operation %d is not a JSON object but %s: every element of the array must be an object", split.notObject, split.notObjectKind)
	}
	return batchRequest{
		meta: application.BatchMeta{
			Key: r.PathValue("idempotencyKey"), Endpoint: endpoint, Fingerprint: sumText(canonical), User: apiUser(r.Context()),
		},
		operations: split.ops,
	}, nil
}

// bodyFault is the 400 for a body with a fault of shape (see shapeFault):
// a fault of JSON syntax anywhere outranks it.
func bodyFault(raw []byte, shape error) error {
	if err := syntaxError(raw, lenientText, jsontext.AllowDuplicateNames(true)); err != nil {
		return malformed(err)
	}
	return shape
}

// batchSplit is a batch body's array: how many elements, the first that is
// no object, and the operations, up to the most a batch may have.
type batchSplit struct {
	elements      int
	notObject     int // index of the first element that is no object, or -1
	notObjectKind string
	ops           []batchOperation
}

// splitBatch reads the array raw (valid JSON without a key twice).
func splitBatch(raw []byte, maxOps int) (batchSplit, error) {
	s := batchSplit{notObject: -1}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), lenientText, jsontext.AllowDuplicateNames(true))
	if _, err := dec.ReadToken(); err != nil {
		return s, err
	}
	// A guess from the size: an operation has a few members, each some
	// twenty bytes long.
	s.ops = make([]batchOperation, 0, min(maxOps, len(raw)/64+1))
	fields := make(jsonFields, 0, min(8*maxOps, len(raw)/20+1))
	for {
		kind := dec.PeekKind()
		if kind == ']' || kind == 0 {
			break
		}
		n := s.elements
		s.elements++
		if kind != '{' || len(s.ops) == maxOps {
			if kind != '{' && s.notObject < 0 {
				s.notObject, s.notObjectKind = n, kindName(kind)
			}
			if err := dec.SkipValue(); err != nil {
				return s, err
			}
			continue
		}
		start := dec.InputOffset()
		first := len(fields)
		var err error
		if fields, err = readMembers(fields, dec, raw); err != nil {
			return s, err
		}
		s.ops = append(s.ops, batchOperation{fields: fields[first:len(fields):len(fields)], plainText: plainASCII(raw[start:dec.InputOffset()])})
	}
	_, err := dec.ReadToken()
	return s, err
}

// plainASCII tells whether b holds printable ASCII without backslashes
// only, in which no string can break the text rules.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
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
func strictObject(dst jsonFields, raw []byte, allowed ...string) (jsonFields, error) {
	fields, err := splitObject(dst, raw)
	if err != nil {
		return fields, err
	}
	return fields, onlyAllowed(fields, "", allowed)
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
			// Compact keeps strings as they were sent, as the ledger
			// holds the id.
			compact := v.Clone()
			if compact.Compact() == nil {
				id = compact
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
		if s, err := decodeString(raw); err == nil {
			text = strings.TrimSpace(s)
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		// An integer beyond 64 bits reads as the nearest int64, so that
		// the caller's range check names the range it is out of.
		return n, nil
	}
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

// identifier reads an id: 0 when absent or null (and not required), else an
// integer from 1 to maxID, so that it names something storable; whether it
// names something is for the domain to say. An id of 0 that is sent is out
// of range rather than absent: read as absent, a location's id 0 beside a
// code would name the location by its code alone.
func identifier(fields jsonFields, name string, required bool) (int64, error) {
	return boundedID(fields, name, required, false)
}

func boundedID(fields jsonFields, name string, required, lenient bool) (int64, error) {
	n, err := integer(fields, name, required, lenient)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > maxID || (n == 0 && sentNotNull(fields, name)) {
		return 0, fmt.Errorf("%s must be an integer from 1 to %d", name, maxID)
	}
	return n, nil
}

// sentNotNull tells whether field name is present with a value other than
// null.
func sentNotNull(fields jsonFields, name string) bool {
	raw, ok := fields.get(name)
	return ok && string(raw) != "null"
}

func text(fields jsonFields, name string) (string, error) {
	raw, ok := fields.get(name)
	if !ok || string(raw) == "null" {
		return "", nil
	}
	s, err := decodeString(raw)
	if err != nil {
		return "", fmt.Errorf("%s must be a string, not %s", name, string(raw))
	}
	if s == "" {
		return "", fmt.Errorf("%s must not be empty", name)
	}
	return s, nil
}

// decodeString reads a JSON string; bad UTF-8 reads as U+FFFD (the text
// check refuses it before).
func decodeString(raw []byte) (string, error) {
	if jsontext.Value(raw).Kind() != '"' {
		return "", errors.New("not a JSON string")
	}
	if bytes.IndexByte(raw, '\\') < 0 && raw[len(raw)-1] == '"' {
		return string(raw[1 : len(raw)-1]), nil // no escapes: the bytes are the string
	}
	s, err := jsontext.AppendUnquote(nil, raw)
	if err != nil && !jsontext.Value(raw).IsValid(lenientText) {
		return "", err // not bad UTF-8 alone
	}
	return string(s), nil
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

// locationSpec reads `warehouse` or `binLocation` from fields.
func locationSpec(fields jsonFields, prefix string) (stock.LocationSpec, error) {
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
		code, err := text(wh, "code")
		if err != nil {
			return spec, prefixed(prefix+"warehouse.", err)
		}
		spec.Warehouse = &stock.WarehouseSpec{ID: id, Code: code}
	}
	if hasBin {
		id, err := identifier(bin, "id", false)
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		code, err := text(bin, "code")
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		whID, err := boundedID(bin, "warehouseId", false, true)
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		whCode, err := text(bin, "warehouseCode")
		if err != nil {
			return spec, prefixed(prefix+"binLocation.", err)
		}
		spec.BinLocation = &stock.BinLocationSpec{ID: id, Code: code, WarehouseID: whID, WarehouseCode: whCode}
	}
	return spec, nil
}

func prefixed(prefix string, err error) error {
	if prefix == "" {
		return err
	}
	return fmt.Errorf("%s%v", prefix, err)
}

// lotSpec reads the optional `lot` of an operation or line:
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
func lineLot(raw jsontext.Value, property string) (*stock.LotSpec, error) {
	if raw == nil {
		return nil, nil
	}
	lot, err := lotSpec(jsonFields{{name: "lot", value: raw}})
	if err != nil {
		return nil, errs.Invalidf("%s.%v", property, err).On(property + ".lot")
	}
	return lot, nil
}
