package http

import (
	"encoding/json"

	"github.com/shopstock/inventory/domain/errs"
)

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at i.
func skipString(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// skipValue returns the index just past the value starting at i.
func skipValue(src []byte, i int) int {
	if i >= len(src) {
		return i
	}
	switch src[i] {
	case '"':
		return skipString(src, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(src); j++ {
			switch src[j] {
			case '"':
				j = skipString(src, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(src)
	default:
		j := i
		for ; j < len(src); j++ {
			switch src[j] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return j
			}
		}
		return j
	}
}

// jsonField is one member of a JSON object: its key decoded, its value a
// slice of the body.
type jsonField struct {
	name  string
	value json.RawMessage
}

// jsonFields are the members of one JSON object in the order they come. An
// object has a handful of members: searching them in turn costs less than
// a map.
type jsonFields []jsonField

func (f jsonFields) get(name string) (json.RawMessage, bool) {
	for i := range f {
		if f[i].name == name {
			return f[i].value, true
		}
	}
	return nil, false
}

// splitObject appends the members of a JSON object (part of a body already
// checked: valid, and no key repeated) to dst, values as slices of src.
func splitObject(dst jsonFields, src []byte) jsonFields {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		return dst
	}
	for j := skipSpace(src, i+1); j < len(src) && src[j] != '}'; {
		keyEnd := skipString(src, j)
		key := jsonKey(src[j:keyEnd])
		valueStart := skipSpace(src, skipSpace(src, keyEnd)+1)
		valueEnd := skipValue(src, valueStart)
		dst = append(dst, jsonField{name: key, value: src[valueStart:valueEnd]})
		j = skipSpace(src, valueEnd)
		if j < len(src) && src[j] == ',' {
			j = skipSpace(src, j+1)
		}
	}
	return dst
}

// fieldName is the text of a key; the names operations use come without
// allocating a string for each of a thousand operations.
func fieldName(b []byte) string {
	switch string(b) {
	case "id":
		return "id"
	case "articleDetailId":
		return "articleDetailId"
	case "quantity":
		return "quantity"
	case "stock":
		return "stock"
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
	}
	return string(b)
}

// batchScan is what one pass over a batch body finds: whether it is valid
// JSON (what json.Valid accepts), the first fault of shape (nesting deeper
// than maxJSONDepth or a key repeated, as checkJSONShape finds it), and,
// when the body is an array, its elements, each object split into its
// members. The same pass writes the body's canonical form, for the
// fingerprint: one pass instead of one per check.
type batchScan struct {
	invalid bool  // not valid JSON up to the first fault of shape, or at all
	shape   error // the first fault of shape; the rest of the body is unread

	elements      int         // of the top-level array, if it is one
	notObject     int         // index of the first element that is no object, or -1
	notObjectKind string      // what that element is
	ops           []opSpan    // the elements that are objects, up to MaxBatchOperations
	fields        []jsonField // the members of every op, one op after another
}

// opSpan is one operation: its members in batchScan.fields and whether every
// string in it, key or value, is printable ASCII without escapes, which no
// text check can fault.
type opSpan struct {
	first, end int32
	plainText  bool
}

// keySpan is a key of an object still open: its token in src and, when it
// has escapes, the index of its decoded text in decodedKeys (else -1). It
// holds no pointer, which spares the collector's barriers on the hot path.
type keySpan struct {
	start, end, decoded int32
}

type batchScanner struct {
	src         []byte
	canonical   *jcs
	depth       int
	keys        []keySpan
	decodedKeys []string
	escaped     bool // the last string read has escapes
	plain       bool // the last string read is printable ASCII without escapes
	plainText   bool // no string of the current op has escapes, controls or non-ASCII
	batchScan
}

// plainString marks the bytes a string may hold that need no more than
// copying: printable ASCII except the quote and the backslash.
var plainString = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanBatch reads src, which holds something other than white space, and
// writes its canonical form to canonical; that is complete when the scan
// found no fault.
func scanBatch(src []byte, maxOps int, canonical *jcs) batchScan {
	s := batchScanner{src: src, canonical: canonical, batchScan: batchScan{notObject: -1}}
	// A guess from the size: an operation has a few members, each some
	// twenty bytes long.
	s.ops = make([]opSpan, 0, min(maxOps, len(src)/64+1))
	s.fields = make([]jsonField, 0, min(8*maxOps, len(src)/20+1))
	i := skipSpace(src, 0)
	var j int
	if i < len(src) && src[i] == '[' {
		j = s.array(i, maxOps)
	} else {
		j = s.value(i)
	}
	if j >= 0 && skipSpace(src, j) != len(src) {
		s.invalid = true
	}
	return s.batchScan
}

// The readers below return the index just past what they read, or -1 when
// they met a fault, which they record.

func (s *batchScanner) fail() int {
	s.invalid = true
	return -1
}

func (s *batchScanner) value(i int) int {
	if i >= len(s.src) {
		return s.fail()
	}
	switch c := s.src[i]; c {
	case '{':
		return s.object(i, false)
	case '[':
		return s.array(i, 0)
	case '"':
		j := s.str(i)
		if j >= 0 {
			s.writeString(i, j, false)
		}
		return j
	case 't':
		return s.literal(i, "true")
	case 'f':
		return s.literal(i, "false")
	case 'n':
		return s.literal(i, "null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return s.number(i)
		}
		return s.fail()
	}
}

func (s *batchScanner) literal(i int, word string) int {
	if len(s.src)-i < len(word) || string(s.src[i:i+len(word)]) != word {
		return s.fail()
	}
	s.canonical.out = append(s.canonical.out, word...)
	return i + len(word)
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *batchScanner) number(start int) int {
	src, i := s.src, start
	if src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && src[i] >= '1' && src[i] <= '9':
		i = digits(src, i+1)
	default:
		return s.fail()
	}
	if i < len(src) && src[i] == '.' {
		j := digits(src, i+1)
		if j == i+1 {
			return s.fail()
		}
		i = j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := digits(src, i)
		if j == i {
			return s.fail()
		}
		i = j
	}
	s.canonical.writeNumber(src[start:i])
	return i
}

func digits(src []byte, i int) int {
	for i < len(src) && src[i] >= '0' && src[i] <= '9' {
		i++
	}
	return i
}

// writeString writes the string src[i:end] to the canonical form.
func (s *batchScanner) writeString(i, end int, key bool) {
	if s.plain {
		s.canonical.out = append(s.canonical.out, s.src[i:end]...)
	} else {
		s.canonical.decodedString(s.src[i:end], key)
	}
}

func (s *batchScanner) str(i int) int {
	src := s.src
	s.escaped, s.plain = false, true
	for j := i + 1; ; {
		for j < len(src) && plainString[src[j]] {
			j++
		}
		if j >= len(src) {
			return s.fail()
		}
		switch c := src[j]; {
		case c == '"':
			return j + 1
		case c == '\\':
			s.escaped, s.plain, s.plainText = true, false, false
			if j+1 >= len(src) {
				return s.fail()
			}
			switch src[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(src) || !isHexDigit(src[j+2]) || !isHexDigit(src[j+3]) || !isHexDigit(src[j+4]) || !isHexDigit(src[j+5]) {
					return s.fail()
				}
				j += 6
			default:
				return s.fail()
			}
		case c < 0x20:
			return s.fail()
		default: // DEL and beyond ASCII: valid JSON, for the text check to judge
			s.plain, s.plainText = false, false
			j++
		}
	}
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// open counts one more level of nesting, or records that it is one too many.
func (s *batchScanner) open() bool {
	if s.depth == maxJSONDepth {
		s.shape = errs.Invalidf("request body is nested deeper than %d levels", maxJSONDepth)
		return false
	}
	s.depth++
	return true
}

// array reads an array; maxOps > 0 marks the top-level array of a batch,
// whose object elements are split into ops.
func (s *batchScanner) array(i, maxOps int) int {
	if !s.open() {
		return -1
	}
	src, c := s.src, s.canonical
	c.out = append(c.out, '[')
	j := skipSpace(src, i+1)
	if j < len(src) && src[j] == ']' {
		c.out = append(c.out, ']')
		s.depth--
		return j + 1
	}
	for n := 0; ; n++ {
		if j >= len(src) {
			return s.fail()
		}
		if n > 0 {
			c.out = append(c.out, ',')
		}
		if maxOps > 0 {
			s.elements++
			if src[j] != '{' {
				if s.notObject < 0 {
					s.notObject, s.notObjectKind = n, jsonKind(src[j:])
				}
				j = s.value(j)
			} else if n < maxOps {
				first := len(s.fields)
				s.plainText = true
				j = s.object(j, true)
				s.ops = append(s.ops, opSpan{first: int32(first), end: int32(len(s.fields)), plainText: s.plainText})
			} else {
				j = s.object(j, false)
			}
		} else {
			j = s.value(j)
		}
		if j < 0 {
			return -1
		}
		j = skipSpace(src, j)
		if j >= len(src) {
			return s.fail()
		}
		switch src[j] {
		case ',':
			j = skipSpace(src, j+1)
		case ']':
			c.out = append(c.out, ']')
			s.depth--
			return j + 1
		default:
			return s.fail()
		}
	}
}

// object reads an object; op marks an operation, whose members are kept.
func (s *batchScanner) object(i int, op bool) int {
	if !s.open() {
		return -1
	}
	src := s.src
	base, decodedBase := len(s.keys), len(s.decodedKeys)
	// Objects of many keys are checked for repeats through a map, the
	// others through the slice.
	var many map[string]struct{}
	c := s.canonical
	o := c.beginObject()
	j := skipSpace(src, i+1)
	if j < len(src) && src[j] == '}' {
		c.endObject(&o)
		s.depth--
		return j + 1
	}
	for {
		if j >= len(src) || src[j] != '"' {
			return s.fail()
		}
		keyEnd := s.str(j)
		if keyEnd < 0 {
			return -1
		}
		c.beginMember(&o)
		s.writeString(j, keyEnd, true)
		c.keyWritten(&o)
		key := keySpan{start: int32(j), end: int32(keyEnd), decoded: -1}
		if s.escaped {
			key.decoded = int32(len(s.decodedKeys))
			s.decodedKeys = append(s.decodedKeys, jsonKey(src[j:keyEnd]))
		}
		if many == nil && len(s.keys)-base == 16 {
			many = make(map[string]struct{}, 32)
			for _, k := range s.keys[base:] {
				many[s.keyText(k)] = struct{}{}
			}
		}
		if s.repeated(base, key, many) {
			s.shape = errs.Invalidf("malformed JSON: an object holds the key %q twice", s.keyText(key))
			return -1
		}
		s.keys = append(s.keys, key)
		j = skipSpace(src, keyEnd)
		if j >= len(src) || src[j] != ':' {
			return s.fail()
		}
		j = skipSpace(src, j+1)
		valueStart := j
		if j = s.value(j); j < 0 {
			return -1
		}
		c.endMember(&o)
		if op {
			var name string
			if key.decoded < 0 {
				name = fieldName(src[key.start+1 : key.end-1])
			} else {
				name = s.decodedKeys[key.decoded]
			}
			s.fields = append(s.fields, jsonField{name: name, value: src[valueStart:j]})
		}
		j = skipSpace(src, j)
		if j >= len(src) {
			return s.fail()
		}
		switch src[j] {
		case ',':
			j = skipSpace(src, j+1)
		case '}':
			c.endObject(&o)
			s.keys, s.decodedKeys = s.keys[:base], s.decodedKeys[:decodedBase]
			s.depth--
			return j + 1
		default:
			return s.fail()
		}
	}
}

// keyText is a key as checkJSONShape compares it: the bytes between the
// quotes, or the decoded text when there are escapes.
func (s *batchScanner) keyText(k keySpan) string {
	if k.decoded >= 0 {
		return s.decodedKeys[k.decoded]
	}
	return string(s.src[k.start+1 : k.end-1])
}

func (s *batchScanner) repeated(base int, key keySpan, many map[string]struct{}) bool {
	if many != nil {
		text := s.keyText(key)
		if _, ok := many[text]; ok {
			return true
		}
		many[text] = struct{}{}
		return false
	}
	token := s.src[key.start:key.end]
	for _, k := range s.keys[base:] {
		if k.decoded < 0 && key.decoded < 0 {
			if string(s.src[k.start:k.end]) == string(token) {
				return true
			}
		} else if s.keyText(k) == s.keyText(key) {
			return true
		}
	}
	return false
}
