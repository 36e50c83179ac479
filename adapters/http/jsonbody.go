package http

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/domain/errs"
)

// lenientText reads strings with bad UTF-8 or lone surrogates as JSON: the
// text check (bodychecks.go) reports them by property, and in a batch only
// their operation fails.
var lenientText = jsontext.AllowInvalidUTF8(true)

// jsonField is one member of a JSON object: its key decoded, its value a
// slice of the body.
type jsonField struct {
	name  string
	value jsontext.Value
}

// jsonFields are the members of one JSON object in the order they come. An
// object has a handful of members: searching them in turn costs less than
// a map.
type jsonFields []jsonField

func (f jsonFields) get(name string) (jsontext.Value, bool) {
	for i := range f {
		if f[i].name == name {
			return f[i].value, true
		}
	}
	return nil, false
}

// splitObject appends the members of the JSON object raw (part of a body
// already found valid) to dst, values as slices of raw.
func splitObject(dst jsonFields, raw []byte) (jsonFields, error) {
	r := newObjectReader(raw, lenientText, jsontext.AllowDuplicateNames(true))
	defer objectReaders.Put(r)
	return readMembers(dst, &r.dec, raw)
}

// A batch splits and checks a thousand objects: their decoders are reused.
type objectReader struct {
	dec  jsontext.Decoder
	buf  bytes.Buffer
	text []byte // a string unquoted, for the text rules
}

var objectReaders = sync.Pool{New: func() any { return new(objectReader) }}

// newObjectReader is a decoder of src under opts from the pool, to be put
// back when done.
func newObjectReader(src []byte, opts ...jsontext.Options) *objectReader {
	r := objectReaders.Get().(*objectReader)
	// A bytes.Buffer is read in place, not copied.
	r.buf = *bytes.NewBuffer(src)
	r.dec.Reset(&r.buf, opts...)
	return r
}

// readMembers reads the object that comes next from dec, which reads src,
// and appends its members to dst.
func readMembers(dst jsonFields, dec *jsontext.Decoder, src []byte) (jsonFields, error) {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return dst, orError(err, errors.New("a JSON object is expected"))
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadValue() // the key, as it was sent
		if err != nil {
			return dst, err
		}
		key := memberName(name)
		value, err := dec.ReadValue()
		if err != nil {
			return dst, err
		}
		end := int(dec.InputOffset())
		dst = append(dst, jsonField{name: key, value: src[end-len(value) : end : end]})
	}
	_, err := dec.ReadToken()
	return dst, err
}

// orError is err, or otherwise when err is nil.
func orError(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// memberName is the text of a key token; the names operations use come
// without allocating a string for each of a thousand operations.
func memberName(token []byte) string {
	if len(token) >= 2 && bytes.IndexByte(token, '\\') < 0 {
		return fieldName(token[1 : len(token)-1])
	}
	s, _ := jsontext.AppendUnquote(nil, token)
	return string(s)
}

// fieldName is the text of a key without escapes.
func fieldName(b []byte) string {
	switch string(b) {
	case "id":
		return "id"
	case "articleDetailId":
		return "articleDetailId"
	case "orderDetailId":
		return "orderDetailId"
	case "quantity":
		return "quantity"
	case "warehouse":
		return "warehouse"
	case "binLocation":
		return "binLocation"
	case "code":
		return "code"
	case "warehouseId":
		return "warehouseId"
	case "warehouseCode":
		return "warehouseCode"
	case "source":
		return "source"
	case "destination":
		return "destination"
	case "lot":
		return "lot"
	}
	return string(b)
}

// jsonKind names the type of a valid JSON value, for messages.
func jsonKind(raw []byte) string {
	return kindName(jsontext.Value(raw).Kind())
}

// kindName names a JSON kind, for messages.
func kindName(k jsontext.Kind) string {
	switch k {
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
	case '0':
		return "a number"
	}
	return "nothing"
}

// syntaxError is what makes raw no single JSON value under opts, or nil.
func syntaxError(raw []byte, opts ...jsontext.Options) error {
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), opts...)
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	end := dec.InputOffset()
	if _, err := dec.ReadToken(); err != io.EOF {
		// The decoder reads a stream of values: a second one is no error
		// of its own.
		next := end + int64(len(raw[end:])-len(bytes.TrimLeft(raw[end:], " \t\r\n")))
		return orError(err, &jsontext.SyntacticError{ByteOffset: next, Err: errors.New("unexpected data after the JSON value")})
	}
	return nil
}

// malformed is the 400 for a body that is not JSON, naming where it breaks.
func malformed(err error) error {
	var serr *jsontext.SyntacticError
	if !errors.As(err, &serr) {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return errs.Invalidf("malformed JSON: unexpected end of JSON input")
		}
		return errs.Invalidf("malformed JSON: %v", err)
	}
	what := "invalid JSON"
	switch {
	case errors.Is(serr.Err, io.ErrUnexpectedEOF):
		what = "unexpected end of JSON input"
	case serr.Err != nil:
		what = serr.Err.Error()
	}
	if property := propertyOf(serr.JSONPointer); property != "" {
		return errs.Invalidf("malformed JSON at %s (byte %d): %s", shortened(property), serr.ByteOffset, what)
	}
	return errs.Invalidf("malformed JSON at byte %d: %s", serr.ByteOffset, what)
}

// shortened is a property path of at most some hundred characters: a body
// nested thousands of levels deep breaks at a path as long.
func shortened(property string) string {
	const head, tail = 60, 40
	runes := []rune(property)
	if len(runes) <= head+tail {
		return property
	}
	return string(runes[:head]) + "…" + string(runes[len(runes)-tail:])
}

// propertyOf writes a JSON pointer as the interface names properties:
// `/details/0/quantity` is `details[0].quantity`, `/3/quantity` of a batch
// `[3].quantity`.
func propertyOf(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.ParseUint(tok, 10, 31); err == nil {
			fmt.Fprintf(&b, "[%s]", tok)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// canonicalForm is raw, one valid JSON value, in RFC 8785 (JCS) form: no
// white space, members sorted by the UTF-16 code units of their keys,
// strings with escapes resolved and re-escaped the JCS way ("\u0041" is
// "A"; bad UTF-8 and lone surrogates read as U+FFFD), numbers in
// ECMAScript form (1.0 is 1, 1e2 is 100). It also checks raw: an error
// means it is no JSON, or holds a key twice.
func canonicalForm(raw []byte) (jsontext.Value, error) {
	v := append(make(jsontext.Value, 0, len(raw)), raw...)
	if err := v.Canonicalize(lenientText); err != nil {
		return nil, err
	}
	// RFC 8785 has no form for a number beyond float64 (1e400): jsontext
	// writes the largest float64, the fingerprints already stored keep the
	// number as written. Only such a number, or that very text, puts the
	// largest float64 in the canonical form.
	if bytes.Contains(v, []byte("1.7976931348623157e+308")) {
		return canonicalKeepingHugeNumbers(raw)
	}
	return v, nil
}

// canonicalKeepingHugeNumbers is canonicalForm, but a number beyond
// float64 stays as written.
func canonicalKeepingHugeNumbers(raw []byte) (jsontext.Value, error) {
	// Numbers are written in their canonical form, or as sent when beyond
	// float64, strings decoded; Canonicalize then sorts the members and
	// leaves the numbers as they are.
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), lenientText)
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out, lenientText)
	for {
		if dec.PeekKind() == '0' {
			lit, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			f, err := strconv.ParseFloat(string(lit), 64)
			if err == nil {
				if f == 0 {
					f = 0 // -0 is 0
				}
				lit = jsontext.AppendFloat(nil, f, 64)
			}
			if err := enc.WriteValue(lit); err != nil {
				return nil, err
			}
			continue
		}
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := enc.WriteToken(tok); err != nil {
			return nil, err
		}
	}
	v := jsontext.Value(bytes.TrimSpace(out.Bytes()))
	err := v.Canonicalize(jsontext.CanonicalizeRawInts(false), jsontext.CanonicalizeRawFloats(false))
	return v, err
}

// fingerprint hashes a valid body as canonical JSON (RFC 8785), so that a
// retry of the same request is recognised whatever its key order, white
// space, number forms (1.0, 1e0) and string escapes.
func fingerprint(raw []byte) string {
	canonical, err := canonicalForm(raw)
	if err != nil {
		canonical = raw // not reached: the body was decoded before
	}
	return sumText(canonical)
}

// sumText is the fingerprint of a canonical form.
func sumText(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}
