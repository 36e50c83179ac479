package http

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// canonicalJSON appends the canonical form of one valid JSON value to buf:
// object keys sorted, no white space, scalars as written. It walks the bytes
// once per nesting level instead of building maps, because every batch is
// fingerprinted and a 1000-operation body is large.
func canonicalJSON(buf *bytes.Buffer, src []byte) {
	i := skipSpace(src, 0)
	if i >= len(src) {
		return
	}
	switch src[i] {
	case '{':
		type member struct {
			key        string
			start, end int // the value's span
		}
		var members []member
		j := skipSpace(src, i+1)
		for j < len(src) && src[j] != '}' {
			keyEnd := skipString(src, j)
			key := string(src[j+1 : keyEnd-1])
			if strings.IndexByte(key, '\\') >= 0 {
				_ = json.Unmarshal(src[j:keyEnd], &key)
			}
			valueStart := skipSpace(src, skipSpace(src, keyEnd)+1) // past ':'
			valueEnd := skipValue(src, valueStart)
			members = append(members, member{key, valueStart, valueEnd})
			j = skipSpace(src, valueEnd)
			if j < len(src) && src[j] == ',' {
				j = skipSpace(src, j+1)
			}
		}
		slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
		buf.WriteByte('{')
		for n, m := range members {
			if n > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, m.key)
			buf.WriteByte(':')
			canonicalJSON(buf, src[m.start:m.end])
		}
		buf.WriteByte('}')
	case '[':
		buf.WriteByte('[')
		j := skipSpace(src, i+1)
		for n := 0; j < len(src) && src[j] != ']'; n++ {
			if n > 0 {
				buf.WriteByte(',')
			}
			end := skipValue(src, j)
			canonicalJSON(buf, src[j:end])
			j = skipSpace(src, end)
			if j < len(src) && src[j] == ',' {
				j = skipSpace(src, j+1)
			}
		}
		buf.WriteByte(']')
	default:
		buf.Write(src[i:skipValue(src, i)])
	}
}

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

// writeJSONString writes s as a JSON string; plain keys, the usual case,
// need no encoder.
func writeJSONString(buf *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			quoted, _ := json.Marshal(s)
			buf.Write(quoted)
			return
		}
	}
	buf.WriteByte('"')
	buf.WriteString(s)
	buf.WriteByte('"')
}

// The splitters below read JSON that json.Valid has already accepted (a
// batch body is checked once as a whole), so they only find boundaries:
// much cheaper than decoding a thousand operations through reflection.

// splitArray returns the elements of a JSON array, as slices of src.
func splitArray(src []byte) []json.RawMessage {
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

// splitObject returns the members of a JSON object, values as slices of
// src; a repeated key keeps its last value, as encoding/json does.
func splitObject(src []byte) map[string]json.RawMessage {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		return nil
	}
	out := make(map[string]json.RawMessage, 6)
	for j := skipSpace(src, i+1); j < len(src) && src[j] != '}'; {
		keyEnd := skipString(src, j)
		key := string(src[j+1 : keyEnd-1])
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
