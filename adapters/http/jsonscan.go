package http

import (
	"encoding/json"
	"strings"
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
