package http

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/shopstock/inventory/application"
)

// appendBatchResult writes the batch result of spec 2.5 as encoding/json
// writes batchResultJSON, byte for byte (renderBatch's test holds them
// together), without reflection over a thousand results.
func appendBatchResult(b []byte, r application.BatchResult) []byte {
	b = append(b, `{"success":`...)
	b = strconv.AppendBool(b, r.Success)
	if r.Message != "" {
		b = append(b, `,"message":`...)
		b = appendJSONString(b, r.Message)
	}
	b = append(b, `,"idempotencyKey":`...)
	b = appendJSONString(b, r.IdempotencyKey)
	b = append(b, `,"createdAt":`...)
	b = appendJSONString(b, r.CreatedAt.UTC().Format(timeLayout))
	b = append(b, `,"results":[`...)
	for i, res := range r.Results {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if len(res.OperationID) > 0 {
			b = append(b, `"operationId":`...)
			b = appendRawJSON(b, res.OperationID)
			b = append(b, ',')
		}
		b = append(b, `"success":`...)
		b = strconv.AppendBool(b, res.Success)
		if res.Message != "" {
			b = append(b, `,"message":`...)
			b = appendJSONString(b, res.Message)
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendJSONString writes s as encoding/json does: printable ASCII as it
// is, anything else through encoding/json itself (its escapes of HTML
// characters, control characters, U+2028/U+2029 and invalid UTF-8).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s)
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendRawJSON writes an operation's id as encoding/json writes a
// json.RawMessage (compacted, HTML characters escaped): a plain number or
// simple token as it is.
func appendRawJSON(b []byte, raw []byte) []byte {
	for _, c := range raw {
		if c <= ' ' || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c == '{' || c == '[' {
			out, err := json.Marshal(json.RawMessage(raw))
			if err != nil {
				return append(b, raw...)
			}
			return append(b, out...)
		}
	}
	return append(b, raw...)
}
