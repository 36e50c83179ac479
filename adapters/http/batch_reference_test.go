package http

// An independent reading of a stock batch body, spelt out from the contract
// (spec 2.5 and 2.6, the limits, DESIGN 7's fingerprint over RFC 8785) with
// encoding/json and the standard library, and nothing of the reader it
// checks: batch_equivalence_test.go holds the reader to it, status, message,
// fingerprint and parsed operation alike. Its figures and messages are
// written out here, so that a change to the reader's shows.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/shopstock/inventory/domain/stock"
)

const (
	refMaxBodyBytes = 8 << 20
	refMaxDepth     = 32
	refMaxOps       = 1000
	refMaxID        = 2147483647
	refMaxQuantity  = 1_000_000_000
)

// refBatch is what the reference makes of a body: the refusal of the whole
// (status and message), or the fingerprint and the operations.
type refBatch struct {
	status      int
	message     string
	fingerprint string
	operations  []refFields
}

// refValue is one valid JSON value: its bytes, and the members or elements
// of an object or array in the order they come.
type refValue struct {
	raw      []byte
	members  refFields
	elements []*refValue
}

type refMember struct {
	key   []byte // the key's token, quotes included
	name  string // the key as the reader names it
	value *refValue
}

type refFields []refMember

func (f refFields) get(name string) (*refValue, bool) {
	for _, m := range f {
		if m.name == name {
			return m.value, true
		}
	}
	return nil, false
}

func refRefused(status int, format string, args ...any) refBatch {
	return refBatch{status: status, message: fmt.Sprintf(format, args...)}
}

// refRead reads body as a stock batch sent with contentType.
func refRead(body []byte, contentType string) refBatch {
	if len(body) > refMaxBodyBytes {
		return refRefused(http.StatusRequestEntityTooLarge, "request body is larger than 8 MiB")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return refRefused(http.StatusBadRequest, "request body is empty: a JSON array of operations is expected")
	}
	if bytes.IndexByte(body, 0) >= 0 || bytes.Contains(body, []byte(`\u0000`)) || bytes.Contains(body, []byte(`\U0000`)) {
		return refRefused(http.StatusBadRequest, `request body must not contain the NUL character (\u0000)`)
	}
	if mt, _, err := mime.ParseMediaType(contentType); err != nil || mt != "application/json" {
		return refRefused(http.StatusUnsupportedMediaType, "request body must be application/json")
	}
	if !json.Valid(body) {
		var v any
		return refRefused(http.StatusBadRequest, "malformed JSON: %v", json.Unmarshal(body, &v))
	}
	p := refParser{src: body}
	root := p.value()
	if msg := refShape(root, 1); msg != "" {
		return refRefused(http.StatusBadRequest, "%s", msg)
	}
	if root.raw[0] != '[' {
		return refRefused(http.StatusBadRequest, "request body must be a JSON array of operations, not %s", refKind(root))
	}
	switch n := len(root.elements); {
	case n == 0:
		return refRefused(http.StatusBadRequest, "the batch is empty: send 1 to %d operations", refMaxOps)
	case n > refMaxOps:
		return refRefused(http.StatusBadRequest, "the batch has %d operations; at most %d are allowed", n, refMaxOps)
	}
	out := refBatch{fingerprint: refFingerprint(body)}
	for i, e := range root.elements {
		if e.raw[0] != '{' {
			return refRefused(http.StatusBadRequest, "operation %d is not a JSON object but %s: every element of the array must be an object", i, refKind(e))
		}
		out.operations = append(out.operations, e.members)
	}
	return out
}

func refKind(v *refValue) string {
	switch v.raw[0] {
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

// refParser splits a body that json.Valid accepted.
type refParser struct {
	src []byte
	i   int
}

func (p *refParser) space() {
	for p.i < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.i]) >= 0 {
		p.i++
	}
}

func (p *refParser) value() *refValue {
	p.space()
	start := p.i
	v := &refValue{}
	switch p.src[p.i] {
	case '{':
		p.i++
		for p.space(); p.src[p.i] != '}'; p.space() {
			if p.src[p.i] == ',' {
				p.i++
				p.space()
			}
			keyStart := p.i
			p.str()
			key := p.src[keyStart:p.i]
			p.space()
			p.i++ // ':'
			v.members = append(v.members, refMember{key: key, name: refKeyName(key), value: p.value()})
		}
		p.i++
	case '[':
		p.i++
		for p.space(); p.src[p.i] != ']'; p.space() {
			if p.src[p.i] == ',' {
				p.i++
			}
			v.elements = append(v.elements, p.value())
		}
		p.i++
	case '"':
		p.str()
	default:
		for p.i < len(p.src) && strings.IndexByte(" \t\r\n,]}", p.src[p.i]) < 0 {
			p.i++
		}
	}
	v.raw = p.src[start:p.i]
	return v
}

func (p *refParser) str() {
	for p.i++; p.src[p.i] != '"'; p.i++ {
		if p.src[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
}

// refKeyName is a key as the contract compares keys: its bytes when it has
// no escape, else its decoded text (where a lone surrogate or bad UTF-8
// becomes U+FFFD).
func refKeyName(token []byte) string {
	inner := token[1 : len(token)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(token, &s)
	return s
}

// refShape finds, in document order, an array or object nested deeper
// than refMaxDepth or an object that holds a key twice.
func refShape(v *refValue, depth int) string {
	if v.raw[0] != '{' && v.raw[0] != '[' {
		return ""
	}
	if depth > refMaxDepth {
		return fmt.Sprintf("request body is nested deeper than %d levels", refMaxDepth)
	}
	seen := map[string]bool{}
	for _, m := range v.members {
		if seen[m.name] {
			return fmt.Sprintf("malformed JSON: an object holds the key %q twice", m.name)
		}
		seen[m.name] = true
		if msg := refShape(m.value, depth+1); msg != "" {
			return msg
		}
	}
	for _, e := range v.elements {
		if msg := refShape(e, depth+1); msg != "" {
			return msg
		}
	}
	return ""
}

// refFingerprint is the SHA-256 of the RFC 8785 form of a valid body.
func refFingerprint(body []byte) string {
	p := refParser{src: body}
	var out bytes.Buffer
	refCanonical(&out, p.value())
	sum := sha256.Sum256(out.Bytes())
	return hex.EncodeToString(sum[:])
}

func refCanonical(out *bytes.Buffer, v *refValue) {
	switch c := v.raw[0]; {
	case c == '{':
		type member struct {
			key   string
			units []uint16
			value *refValue
		}
		members := make([]member, len(v.members))
		for i, m := range v.members {
			var s string
			_ = json.Unmarshal(m.key, &s)
			members[i] = member{s, utf16.Encode([]rune(s)), m.value}
		}
		slices.SortStableFunc(members, func(a, b member) int { return slices.Compare(a.units, b.units) })
		out.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				out.WriteByte(',')
			}
			refCanonicalString(out, m.key)
			out.WriteByte(':')
			refCanonical(out, m.value)
		}
		out.WriteByte('}')
	case c == '[':
		out.WriteByte('[')
		for i, e := range v.elements {
			if i > 0 {
				out.WriteByte(',')
			}
			refCanonical(out, e)
		}
		out.WriteByte(']')
	case c == '"':
		var s string
		_ = json.Unmarshal(v.raw, &s)
		refCanonicalString(out, s)
	case c == 't' || c == 'f' || c == 'n':
		out.Write(v.raw)
	default:
		f, err := strconv.ParseFloat(string(v.raw), 64)
		if err != nil {
			out.Write(v.raw) // beyond float64: RFC 8785 has no form, kept as written
			return
		}
		out.WriteString(refES6Number(f))
	}
}

// refShortEscapes are JSON's short escapes, which RFC 8785 writes.
var refShortEscapes = map[byte]string{'"': `\"`, '\\': `\\`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}

// refEscapes are the characters JSON's short escapes stand for.
var refEscapes = map[byte]rune{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// refCanonicalString escapes only what RFC 8785 escapes: the quote, the
// backslash and control characters, in short form where JSON has one.
func refCanonicalString(out *bytes.Buffer, s string) {
	out.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case refShortEscapes[b] != "":
			out.WriteString(refShortEscapes[b])
		case b < 0x20:
			fmt.Fprintf(out, `\u%04x`, b)
		default:
			out.WriteByte(b)
		}
	}
	out.WriteByte('"')
}

// refES6Number is ECMAScript's Number.prototype.toString: plain from 1e-6
// up to 1e21, else d.ddde±x, with the shortest digits that read back.
func refES6Number(f float64) string {
	if f == 0 {
		return "0"
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	mantissa, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	return mantissa + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
}

// refOperation reads one operation for an endpoint that allows these
// fields besides `id`: its id (compact), and what is wrong with it or the
// operation parse makes of it.
func refOperation(fields refFields, allowed []string, parse func(refFields) (stock.Operation, error)) (id []byte, op stock.Operation, problem string) {
	if v, ok := fields.get("id"); ok {
		var buf bytes.Buffer
		if json.Compact(&buf, v.raw) == nil {
			id = buf.Bytes()
		}
	}
	if err := refOnly(fields, append([]string{"id"}, allowed...)); err != nil {
		return id, nil, err.Error()
	}
	if msg := refOperationText(fields); msg != "" {
		return id, nil, msg
	}
	op, err := parse(fields)
	if err != nil {
		return id, nil, err.Error()
	}
	return id, op, ""
}

// refOnly faults the first field, in the order sent, that is not allowed.
func refOnly(fields refFields, allowed []string) error {
	for _, m := range fields {
		if !slices.Contains(allowed, m.name) {
			return fmt.Errorf("unknown field %q; allowed: %s", m.name, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// refOperationText is the text problem of the field (other than `id`)
// whose name sorts first among those that have one, as "property message".
func refOperationText(fields refFields) string {
	sorted := slices.Clone(fields)
	slices.SortFunc(sorted, func(a, b refMember) int { return strings.Compare(a.name, b.name) })
	for _, m := range sorted {
		if m.name == "id" {
			continue
		}
		if msg := refText(m.value, m.name); msg != "" {
			return msg
		}
	}
	return ""
}

// refText finds the first string, key or value, in document order, that is
// not valid UTF-8 or holds a control character (tab, line feed and carriage
// return are allowed in address and comment).
func refText(v *refValue, path string) string {
	switch v.raw[0] {
	case '"':
		last := path[strings.LastIndexByte(path, '.')+1:]
		if msg := refStringProblem(v.raw, last == "address" || last == "comment"); msg != "" {
			return path + " " + msg
		}
	case '{':
		for _, m := range v.members {
			child := path + "." + m.name
			if msg := refStringProblem(m.key, false); msg != "" {
				return "property name " + strconv.QuoteToASCII(child) + " " + msg
			}
			if msg := refText(m.value, child); msg != "" {
				return msg
			}
		}
	case '[':
		for n, e := range v.elements {
			if msg := refText(e, path+"["+strconv.Itoa(n)+"]"); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// refStringProblem decodes a string token character by character and
// names the first fault.
func refStringProblem(token []byte, multiline bool) string {
	const notUTF8, control = "must be valid UTF-8", "must not contain control characters"
	unit := func(s []byte) rune {
		n, _ := strconv.ParseUint(string(s), 16, 16)
		return rune(n)
	}
	s := token[1 : len(token)-1]
	for i := 0; i < len(s); {
		var r rune
		switch {
		case s[i] == '\\' && s[i+1] == 'u':
			r = unit(s[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if r >= 0xdc00 || i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
					return notUTF8
				}
				low := unit(s[i+2 : i+6])
				if low < 0xdc00 || low > 0xdfff {
					return notUTF8
				}
				r = utf16.DecodeRune(r, low)
				i += 6
			}
		case s[i] == '\\':
			r = refEscapes[s[i+1]]
			i += 2
		default:
			var size int
			r, size = utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				return notUTF8
			}
			i += size
		}
		if (r < 0x20 || r == 0x7f) && !(multiline && (r == '\t' || r == '\n' || r == '\r')) {
			return control
		}
	}
	return ""
}

// refInteger reads a JSON integer; a numeric string only where lenient.
func refInteger(fields refFields, name string, required, lenient bool) (int64, error) {
	v, ok := fields.get(name)
	if !ok || string(v.raw) == "null" {
		if required {
			return 0, fmt.Errorf("%s is required", name)
		}
		return 0, nil
	}
	text := string(v.raw)
	if lenient && v.raw[0] == '"' {
		var s string
		_ = json.Unmarshal(v.raw, &s)
		text = strings.TrimSpace(s)
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s must be an integer, not %s", name, v.raw)
	}
	return n, nil
}

func refID(fields refFields, name string, required, lenient bool) (int64, error) {
	n, err := refInteger(fields, name, required, lenient)
	if err == nil && (n < 0 || n > refMaxID) {
		err = fmt.Errorf("%s must be an integer from 1 to %d", name, refMaxID)
	}
	return n, err
}

func refQuantity(fields refFields) (int, error) {
	n, err := refInteger(fields, "quantity", true, false)
	if err == nil && (n < -refMaxQuantity || n > refMaxQuantity) {
		err = fmt.Errorf("quantity: must be an integer from %d to %d", -refMaxQuantity, refMaxQuantity)
	}
	return int(n), err
}

func refString(fields refFields, name string) (string, error) {
	v, ok := fields.get(name)
	if !ok || string(v.raw) == "null" {
		return "", nil
	}
	var s string
	if v.raw[0] != '"' || json.Unmarshal(v.raw, &s) != nil {
		return "", fmt.Errorf("%s must be a string, not %s", name, v.raw)
	}
	if s == "" {
		return "", fmt.Errorf("%s must not be empty", name)
	}
	return s, nil
}

// refObject reads the object field name, which may hold only allowed.
func refObject(fields refFields, name string, allowed ...string) (refFields, bool, error) {
	v, ok := fields.get(name)
	if !ok || string(v.raw) == "null" {
		return nil, false, nil
	}
	if v.raw[0] != '{' {
		return nil, true, fmt.Errorf("%s must be an object", name)
	}
	if err := refOnly(v.members, allowed); err != nil {
		return nil, true, fmt.Errorf("%s: %v", name, err)
	}
	return v.members, true, nil
}

// refLocation reads `warehouse` and `binLocation`, prefix naming where.
func refLocation(fields refFields, prefix string) (stock.LocationSpec, error) {
	var spec stock.LocationSpec
	fail := func(where string, err error) (stock.LocationSpec, error) {
		return spec, fmt.Errorf("%s%s%v", prefix, where, err)
	}
	wh, hasWarehouse, err := refObject(fields, "warehouse", "id", "code")
	if err != nil {
		return fail("", err)
	}
	bin, hasBin, err := refObject(fields, "binLocation", "id", "code", "warehouseId", "warehouseCode")
	if err != nil {
		return fail("", err)
	}
	if hasWarehouse {
		var w stock.WarehouseSpec
		if w.ID, err = refID(wh, "id", false, false); err != nil {
			return fail("warehouse.", err)
		}
		if w.Code, err = refString(wh, "code"); err != nil {
			return fail("warehouse.", err)
		}
		spec.Warehouse = &w
	}
	if hasBin {
		var b stock.BinLocationSpec
		if b.ID, err = refID(bin, "id", false, false); err != nil {
			return fail("binLocation.", err)
		}
		if b.Code, err = refString(bin, "code"); err != nil {
			return fail("binLocation.", err)
		}
		if b.WarehouseID, err = refID(bin, "warehouseId", false, true); err != nil {
			return fail("binLocation.", err)
		}
		if b.WarehouseCode, err = refString(bin, "warehouseCode"); err != nil {
			return fail("binLocation.", err)
		}
		spec.BinLocation = &b
	}
	return spec, nil
}

// refQuantityAt reads stock/set, stock/change and orderDetails/ship (with
// idField orderDetailId, read into a Change for the comparison).
func refQuantityAt(idField string, set bool) func(refFields) (stock.Operation, error) {
	return func(fields refFields) (stock.Operation, error) {
		id, err := refID(fields, idField, true, false)
		if err != nil {
			return nil, err
		}
		q, err := refQuantity(fields)
		if err != nil {
			return nil, err
		}
		at, err := refLocation(fields, "")
		if err != nil {
			return nil, err
		}
		if set {
			return stock.Set{ArticleDetailID: id, At: at, Quantity: q}, nil
		}
		return stock.Change{ArticleDetailID: id, At: at, Quantity: q}, nil
	}
}

func refRelocation(fields refFields) (stock.Operation, error) {
	var op stock.Relocate
	var err error
	if op.ArticleDetailID, err = refID(fields, "articleDetailId", true, false); err != nil {
		return nil, err
	}
	if v, ok := fields.get("quantity"); ok && string(v.raw) == `"all"` {
		op.All = true
	} else {
		if _, err := refInteger(fields, "quantity", true, false); err != nil {
			var raw []byte
			if ok {
				raw = v.raw
			}
			return nil, fmt.Errorf(`quantity must be a positive integer or "all", not %s`, raw)
		}
		if op.Quantity, err = refQuantity(fields); err != nil {
			return nil, err
		}
	}
	for _, side := range []struct {
		name string
		into *stock.LocationSpec
	}{{"source", &op.From}, {"destination", &op.To}} {
		inner, present, err := refObject(fields, side.name, "warehouse", "binLocation")
		if err != nil {
			return nil, err
		}
		if !present {
			return nil, fmt.Errorf("%s is required", side.name)
		}
		if *side.into, err = refLocation(inner, side.name+"."); err != nil {
			return nil, err
		}
	}
	return op, nil
}
