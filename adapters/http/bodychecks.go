package http

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
)

// maxJSONDepth is how deeply a body may nest: each array or object opened
// inside another is one level deeper, the outermost is level 1.
const maxJSONDepth = 32

// checkJSONShape refuses a body nested deeper than maxJSONDepth or with an
// object that holds the same key twice (encoding/json would keep the last,
// the fingerprint and a reader of the log the first). It runs on every JSON
// body before anything decodes it, but for a batch body, which scanBatch
// checks the same way in its one pass; a body that is not valid JSON passes,
// for the decoder to report.
func checkJSONShape(src []byte) error {
	if !json.Valid(src) {
		return nil
	}
	// An object's keys are few: a slice searched in turn costs less than a
	// map per object, until an object has many.
	type frame struct {
		object bool
		keys   []string
		many   map[string]struct{}
	}
	stack := make([]frame, 0, 8)
	for i := 0; i < len(src); {
		switch src[i] {
		case '{', '[':
			if len(stack) == maxJSONDepth {
				return errs.Invalidf("request body is nested deeper than %d levels", maxJSONDepth)
			}
			stack = append(stack, frame{object: src[i] == '{'})
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			i++
		case '"':
			end := skipString(src, i)
			top := len(stack) - 1
			if top >= 0 && stack[top].object {
				if next := skipSpace(src, end); next < len(src) && src[next] == ':' {
					key := jsonKey(src[i:end])
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

// jsonKey decodes a JSON string token (with its quotes).
func jsonKey(token []byte) string {
	if len(token) >= 2 && strings.IndexByte(string(token), '\\') < 0 {
		return fieldName(token[1 : len(token)-1])
	}
	var s string
	_ = json.Unmarshal(token, &s)
	return s
}

// multilineProperties may hold tab, line feed and carriage return.
var multilineProperties = code.MultilineProperties

// textProblem finds the first string (key or value) in the valid JSON value
// raw that is not valid UTF-8 or holds a control character (U+0000–U+001F,
// U+007F; tab, line feed and carriage return are allowed in address and
// comment). It returns the property path of the offence (`details[0].status`,
// prefixed by path when path is not empty) and what is wrong with it;
// found is false when every string is fine. The batch readers call it per
// operation (see operationTextProblem); decodeStrict for every other body.
func textProblem(raw []byte, path string) (property, message string, found bool) {
	_, property, message, found = walkText(raw, skipSpace(raw, 0), path)
	return property, message, found
}

// operationTextProblem checks the strings of one batch operation, except
// its free-form `id`, and returns an error naming the property, or nil.
// The same operation always names the same property: the fault in the
// field whose name sorts first.
func operationTextProblem(fields jsonFields) error {
	var first *jsonField
	var property, message string
	for i := range fields {
		f := &fields[i]
		if f.name == "id" || first != nil && f.name >= first.name {
			continue
		}
		if p, msg, found := textProblem(f.value, f.name); found {
			first, property, message = f, p, msg
		}
	}
	if first == nil {
		return nil
	}
	return fmt.Errorf("%s %s", property, message)
}

// walkText checks the value starting at i and returns the index past it.
func walkText(src []byte, i int, path string) (end int, property, message string, found bool) {
	if i >= len(src) {
		return i, "", "", false
	}
	switch src[i] {
	case '"':
		end = skipString(src, i)
		if msg := stringProblem(src[i:end], isMultiline(path)); msg != "" {
			return end, propertyName(path), msg, true
		}
		return end, "", "", false
	case '{':
		j := skipSpace(src, i+1)
		for j < len(src) && src[j] != '}' {
			keyEnd := skipString(src, j)
			key := jsonKey(src[j:keyEnd])
			child := key
			if path != "" {
				child = path + "." + key
			}
			if msg := stringProblem(src[j:keyEnd], false); msg != "" {
				return keyEnd, "property name " + strconv.QuoteToASCII(propertyName(child)), msg, true
			}
			j = skipSpace(src, skipSpace(src, keyEnd)+1) // past ':'
			if j, property, message, found = walkText(src, j, child); found {
				return j, property, message, true
			}
			j = skipSpace(src, j)
			if j < len(src) && src[j] == ',' {
				j = skipSpace(src, j+1)
			}
		}
		return min(j+1, len(src)), "", "", false
	case '[':
		j := skipSpace(src, i+1)
		for n := 0; j < len(src) && src[j] != ']'; n++ {
			if j, property, message, found = walkText(src, j, path+"["+strconv.Itoa(n)+"]"); found {
				return j, property, message, true
			}
			j = skipSpace(src, j)
			if j < len(src) && src[j] == ',' {
				j = skipSpace(src, j+1)
			}
		}
		return min(j+1, len(src)), "", "", false
	default:
		return skipValue(src, i), "", "", false
	}
}

func propertyName(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

// isMultiline tells whether the property at path is one that may span lines.
func isMultiline(path string) bool {
	last := path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		last = path[i+1:]
	}
	for _, p := range multilineProperties {
		if last == p {
			return true
		}
	}
	return false
}

// stringProblem checks one JSON string token (with its quotes), escapes
// decoded: encoding/json would silently turn bad UTF-8 and lone surrogates
// into U+FFFD, so that two different strings could become one.
func stringProblem(token []byte, multiline bool) string {
	const (
		notUTF8 = code.NotUTF8Message
		control = code.ControlMessage
	)
	allowed := func(r rune) bool { return code.Allowed(r, multiline) }
	if len(token) < 2 {
		return ""
	}
	s := token[1 : len(token)-1]
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				if !allowed('\n') {
					return control
				}
			case 't':
				if !allowed('\t') {
					return control
				}
			case 'r':
				if !allowed('\r') {
					return control
				}
			case 'b', 'f':
				return control
			case 'u':
				r, ok := hex4(s, i+2)
				if !ok {
					return notUTF8
				}
				i += 6
				switch {
				case r >= 0xd800 && r < 0xdc00: // must be followed by a low surrogate
					low, ok := hex4(s, i+2)
					if i+1 >= len(s) || s[i] != '\\' || s[i+1] != 'u' || !ok || low < 0xdc00 || low > 0xdfff {
						return notUTF8
					}
					i += 6
				case r >= 0xdc00 && r <= 0xdfff:
					return notUTF8
				case !allowed(r):
					return control
				}
				continue
			}
			i += 2
			continue
		}
		if c < utf8.RuneSelf {
			if !allowed(rune(c)) {
				return control
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			return notUTF8
		}
		i += size
	}
	return ""
}

func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(s[i:i+4]), 16, 32)
	return rune(n), err == nil
}
