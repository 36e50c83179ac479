package http

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// canonicalSum is the SHA-256 of the RFC 8785 (JCS) form of one valid JSON
// value: no white space, object members sorted by the UTF-16 code units of
// their keys, strings with their escapes resolved and re-escaped the JCS way
// ("\u0041" is "A"), numbers in ECMAScript form (1.0 is 1, 1e2 is 100).
//
// Every batch is fingerprinted (scanBatch drives the same writer while it
// checks the body), so this reads the body once, front to back:
// values are written in the order they come, and only objects whose members
// are out of order are rearranged when the result is put together, each
// byte moved once whatever the depth. Rescanning nested spans level by level
// costs depth × size, a minute of CPU for an 8 MiB body nested 10000 deep
// (the depth json.Valid admits).
func canonicalSum(src []byte) [sha256.Size]byte {
	c := newJCS(src)
	sum := sha256.Sum256(c.canonical())
	c.release()
	return sum
}

// Every batch is fingerprinted: the buffers of one canonicalisation serve
// the next, up to a size, instead of being grown anew each time.
var jcsPool = sync.Pool{New: func() any { return new(jcs) }}

const jcsPoolMaxBytes = 1 << 20

func newJCS(src []byte) *jcs {
	c := jcsPool.Get().(*jcs)
	c.src = src
	if cap(c.out) < len(src) {
		c.out = make([]byte, 0, len(src))
	}
	return c
}

func (c *jcs) release() {
	if cap(c.out) > jcsPoolMaxBytes || cap(c.sorted) > jcsPoolMaxBytes || cap(c.keys) > jcsPoolMaxBytes ||
		cap(c.objects) > jcsPoolMaxBytes/16 || cap(c.members) > jcsPoolMaxBytes/16 || cap(c.pending) > jcsPoolMaxBytes/16 {
		return
	}
	*c = jcs{out: c.out[:0], sorted: c.sorted[:0], keys: c.keys[:0], objects: c.objects[:0], members: c.members[:0], pending: c.pending[:0]}
	jcsPool.Put(c)
}

// canonical reads src and returns its canonical form, valid until release.
func (c *jcs) canonical() []byte {
	c.value(0)
	return c.result()
}

// result is the canonical form of what was written, valid until release.
func (c *jcs) result() []byte {
	if c.unsorted == 0 {
		return c.out
	}
	c.sorted = c.emit(c.sorted[:0], 0, int32(len(c.out)), 0)
	return c.sorted
}

// jcs is one canonicalisation in progress. out holds the canonical text with
// every object's members in source order; objects records where each object
// sits in out, in the order the objects begin, and how to reorder it.
type jcs struct {
	src      []byte
	out      []byte
	sorted   []byte // out with the objects rearranged, when some need it
	keys     []byte // decoded keys that out does not hold as they are, for sorting
	objects  []jcsObject
	members  []jcsMember // each object's members, contiguous and sorted
	pending  []jcsMember // members of the objects still open
	unsorted int         // objects that need reordering, themselves or below
}

type jcsObject struct {
	start, end int32 // span in out, braces included
	first, n   int32 // its members in members, when it is not in order
	next       int32 // index in objects of the first object after this one and its descendants
	inOrder    bool  // its members and those of every object inside are in order
}

// Offsets are int32 to halve the bookkeeping; a request body is far below
// 2 GiB.
type jcsMember struct {
	keyStart, keyEnd     int32 // decoded key in out, or in keys when inKeys
	textStart            int32 // canonical key, quotes included, in out; a colon and the value follow
	valueStart, valueEnd int32 // canonical value in out
	firstObject          int32 // index in objects of the first object inside the value
	inKeys               bool
}

// value canonicalises the value at or after src[i] and returns the index
// just past it.
func (c *jcs) value(i int) int {
	i = skipSpace(c.src, i)
	if i >= len(c.src) {
		return i
	}
	switch c.src[i] {
	case '{':
		return c.object(i)
	case '[':
		c.out = append(c.out, '[')
		j := skipSpace(c.src, i+1)
		for n := 0; j < len(c.src) && c.src[j] != ']'; n++ {
			if n > 0 {
				c.out = append(c.out, ',')
			}
			j = skipSpace(c.src, c.value(j))
			if j < len(c.src) && c.src[j] == ',' {
				j++
			}
			j = skipSpace(c.src, j)
		}
		c.out = append(c.out, ']')
		return j + 1
	case '"':
		return c.str(i, false)
	case 't', 'f', 'n':
		j := i
		for j < len(c.src) && c.src[j] >= 'a' && c.src[j] <= 'z' {
			j++
		}
		c.out = append(c.out, c.src[i:j]...)
		return j
	default:
		return c.number(i)
	}
}

func (c *jcs) object(i int) int {
	o := c.beginObject()
	j := skipSpace(c.src, i+1)
	for j < len(c.src) && c.src[j] != '}' {
		c.beginMember(&o)
		j = c.str(j, true)
		c.keyWritten(&o)
		j = skipSpace(c.src, j)
		if j < len(c.src) && c.src[j] == ':' {
			j++
		}
		j = skipSpace(c.src, c.value(j))
		c.endMember(&o)
		if j < len(c.src) && c.src[j] == ',' {
			j++
		}
		j = skipSpace(c.src, j)
	}
	c.endObject(&o)
	return j + 1
}

// The writers below take a value piece by piece, from this reader or from
// the batch scanner (which reads the body once for all it checks).

// jcsOpenObject is an object being written.
type jcsOpenObject struct {
	k, base, unsortedBefore, keysBefore, n int
	inOrder                                bool
	member                                 jcsMember // the member being written
}

func (c *jcs) beginObject() jcsOpenObject {
	o := jcsOpenObject{k: len(c.objects), base: len(c.pending), unsortedBefore: c.unsorted, inOrder: true}
	c.objects = append(c.objects, jcsObject{start: int32(len(c.out))})
	c.out = append(c.out, '{')
	return o
}

// beginMember comes before the member's key is written (a string).
func (c *jcs) beginMember(o *jcsOpenObject) {
	if o.n > 0 {
		c.out = append(c.out, ',')
	}
	o.member = jcsMember{textStart: int32(len(c.out))}
	o.keysBefore = len(c.keys)
}

// keyWritten comes after the member's key, before its value.
func (c *jcs) keyWritten(o *jcsOpenObject) {
	m := &o.member
	if len(c.keys) > o.keysBefore {
		m.keyStart, m.keyEnd, m.inKeys = int32(o.keysBefore), int32(len(c.keys)), true
	} else {
		m.keyStart, m.keyEnd = m.textStart+1, int32(len(c.out))-1
	}
	if o.inOrder && o.n > 0 && c.compareKeys(c.pending[len(c.pending)-1], *m) > 0 {
		o.inOrder = false
	}
	c.out = append(c.out, ':')
	m.valueStart, m.firstObject = int32(len(c.out)), int32(len(c.objects))
}

// endMember comes after the member's value.
func (c *jcs) endMember(o *jcsOpenObject) {
	o.member.valueEnd = int32(len(c.out))
	c.pending = append(c.pending, o.member)
	o.n++
}

func (c *jcs) endObject(o *jcsOpenObject) {
	c.out = append(c.out, '}')
	own := c.pending[o.base:]
	if !o.inOrder {
		slices.SortStableFunc(own, c.compareKeys)
	}
	obj := &c.objects[o.k]
	obj.end, obj.next = int32(len(c.out)), int32(len(c.objects))
	obj.inOrder = o.inOrder && c.unsorted == o.unsortedBefore
	if !obj.inOrder {
		// Only objects that emit rearranges need their members kept.
		c.unsorted++
		obj.first, obj.n = int32(len(c.members)), int32(len(own))
		c.members = append(c.members, own...)
	}
	c.pending = c.pending[:o.base]
}

// emit appends out[lo:hi] to buf with every object in it in key order; k
// is the index of the first object that starts at or after lo.
func (c *jcs) emit(buf []byte, lo, hi, k int32) []byte {
	for int(k) < len(c.objects) && c.objects[k].start < hi {
		o := c.objects[k]
		buf = append(buf, c.out[lo:o.start]...)
		if o.inOrder {
			buf = append(buf, c.out[o.start:o.end]...)
		} else {
			buf = append(buf, '{')
			for n, m := range c.members[o.first : o.first+o.n] {
				if n > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, c.out[m.textStart:m.valueStart-1]...)
				buf = append(buf, ':')
				buf = c.emit(buf, m.valueStart, m.valueEnd, m.firstObject)
			}
			buf = append(buf, '}')
		}
		lo, k = o.end, o.next
	}
	return append(buf, c.out[lo:hi]...)
}

// key is a member's decoded key.
func (c *jcs) key(m jcsMember) []byte {
	if m.inKeys {
		return c.keys[m.keyStart:m.keyEnd]
	}
	return c.out[m.keyStart:m.keyEnd]
}

// compareKeys orders keys by their UTF-16 code units, as RFC 8785 asks. That
// is the order of their UTF-8 bytes except where a character above U+FFFF
// (a surrogate pair in UTF-16) meets one from U+E000 to U+FFFF.
func (c *jcs) compareKeys(a, b jcsMember) int {
	x, y := c.key(a), c.key(b)
	// Skip what they share; where they differ, two ASCII bytes decide as
	// they are, else the characters they are in.
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	if i == len(x) || i == len(y) {
		return len(x) - len(y)
	}
	if x[i] < utf8.RuneSelf && y[i] < utf8.RuneSelf {
		return int(x[i]) - int(y[i])
	}
	for i > 0 && !utf8.RuneStart(x[i]) {
		i--
	}
	x, y = x[i:], y[i:]
	for len(x) > 0 && len(y) > 0 {
		if x[0] < utf8.RuneSelf && y[0] < utf8.RuneSelf {
			if x[0] != y[0] {
				return int(x[0]) - int(y[0])
			}
			x, y = x[1:], y[1:]
			continue
		}
		r, n := utf8.DecodeRune(x)
		s, m := utf8.DecodeRune(y)
		if r != s {
			if ur, us := firstUTF16Unit(r), firstUTF16Unit(s); ur != us {
				return int(ur) - int(us)
			}
			// The same high surrogate: the low ones, and so the
			// characters, decide.
			return int(r) - int(s)
		}
		x, y = x[n:], y[m:]
	}
	return len(x) - len(y)
}

// firstUTF16Unit is r's first UTF-16 code unit, the high surrogate for a
// character above U+FFFF.
func firstUTF16Unit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

// str canonicalises the string at src[i] (a quote), a key or not, and
// returns the index just past it.
func (c *jcs) str(i int, key bool) int {
	j := i + 1
	for j < len(c.src) && c.src[j] != '"' && c.src[j] != '\\' && c.src[j] < utf8.RuneSelf {
		j++
	}
	if j < len(c.src) && c.src[j] == '"' {
		// Printable ASCII without escapes, the usual case, is canonical as
		// it is, and so is a key: out holds it for sorting.
		c.out = append(c.out, c.src[i:j+1]...)
		return j + 1
	}
	end := skipString(c.src, i)
	c.decodedString(c.src[i:end], key)
	return end
}

// decodedString writes the JSON string token (quotes included), escapes
// resolved; for a key that out cannot hold as it is, it keeps the decoded
// text in keys for sorting.
func (c *jcs) decodedString(token []byte, key bool) {
	var s string
	if raw := token[1:max(1, len(token)-1)]; bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		s = string(raw)
	} else {
		// Resolves escapes and surrogate pairs the way the batch itself is
		// decoded; a lone surrogate or invalid UTF-8 becomes U+FFFD.
		s = decodeJSONString(token)
	}
	start := len(c.out)
	c.out = appendJCSString(c.out, s)
	if key && len(c.out)-start != len(s)+2 {
		c.keys = append(c.keys, s...) // out holds it escaped
	}
}

func decodeJSONString(token []byte) string {
	var s string
	_ = json.Unmarshal(token, &s)
	return s
}

// appendJCSString writes s as RFC 8785 does: only the quote, the backslash
// and control characters are escaped, the short forms where JSON has them.
func appendJCSString(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b == '"', b == '\\':
			out = append(out, '\\', b)
		case b == '\b':
			out = append(out, '\\', 'b')
		case b == '\f':
			out = append(out, '\\', 'f')
		case b == '\n':
			out = append(out, '\\', 'n')
		case b == '\r':
			out = append(out, '\\', 'r')
		case b == '\t':
			out = append(out, '\\', 't')
		case b < 0x20:
			out = append(out, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
		default:
			out = append(out, b)
		}
	}
	return append(out, '"')
}

// number canonicalises the number at src[i] and returns the index just past
// it.
func (c *jcs) number(i int) int {
	j := i
	for j < len(c.src) && (c.src[j] >= '0' && c.src[j] <= '9' || c.src[j] == '-' || c.src[j] == '.' || c.src[j] == 'e' || c.src[j] == 'E' || c.src[j] == '+') {
		j++
	}
	c.writeNumber(c.src[i:j])
	return j
}

// writeNumber writes the number literal lit.
func (c *jcs) writeNumber(lit []byte) {
	plain := len(lit) <= 15 // an integer short enough to be exact in a float64
	for _, b := range lit {
		if b == '.' || b == 'e' || b == 'E' || b == '+' {
			plain = false
		}
	}
	switch {
	case plain:
		if string(lit) == "-0" {
			lit = lit[1:]
		}
		c.out = append(c.out, lit...)
	default:
		f, err := strconv.ParseFloat(string(lit), 64)
		if err != nil {
			// Beyond float64 (1e400): RFC 8785 has no form for it; keep it as
			// written, which the batch refuses anyway.
			c.out = append(c.out, lit...)
		} else {
			c.out = appendES6Number(c.out, f)
		}
	}
}

// appendES6Number writes f as ECMAScript's Number.prototype.toString does:
// the shortest digits that read back as f, in plain notation from 1e-6 up
// to 1e21 and as d.ddde±x outside it.
func appendES6Number(out []byte, f float64) []byte {
	if f == 0 {
		return append(out, '0') // -0 too
	}
	if abs := math.Abs(f); abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(out, f, 'f', -1, 64)
	}
	start := len(out)
	out = strconv.AppendFloat(out, f, 'e', -1, 64)
	// Go writes at least two exponent digits (1e-07), ECMAScript no more
	// than needed (1e-7).
	e := start + bytes.IndexByte(out[start:], 'e')
	if len(out) > e+3 && out[e+2] == '0' {
		out = append(out[:e+2], out[e+3:]...)
	}
	return out
}
