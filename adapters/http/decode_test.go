package http

import (
	"fmt"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

// What a client is told about a body that cannot be decoded: the property
// by its path, and what is wrong with it.
func TestDecodeStrictNamesTheProperty(t *testing.T) {
	for _, c := range []struct {
		body     string
		dst      any
		readOnly []string
		want     string // the message, then each property and its message
	}{
		{`{"code":5,"name":"n"}`, &warehouseCreateBody{}, nil, "code: must be a string, not a number"},
		{`{"code":"W","stockAvailableForSale":"yes"}`, &warehouseCreateBody{}, nil, "stockAvailableForSale: must be a boolean, not a string"},
		{`{"code":"W","comment":{}}`, &warehouseCreateBody{}, nil, "comment: must be a string, not an object"},
		{`{"code":"W","binLocationFormatComponents":[{"type":"text","value":"x","extra":1}]}`, &warehouseCreateBody{}, nil,
			"binLocationFormatComponents[0].extra: is not a known field"},
		{`{"code":"W","Code":"X"}`, &warehouseCreateBody{}, nil, "Code: is not a known field"},
		{`{"id":3,"code":"W"}`, &warehouseUpdateBody{}, warehouseReadOnly, "id: is read-only"},
		{`{"number":"B","details":[{"articleDetailId":1,"quantity":1},{"articleDetailId":1,"quantity":1.5}]}`, &orderCreateBody{}, nil,
			"details[1].quantity: must be an integer, not 1.5"},
		{`{"number":"B","details":[{"articleDetailId":1,"quantity":1,"foo":2}]}`, &orderCreateBody{}, nil, "details[0].foo: is not a known field"},
		{`{"number":"B","details":{}}`, &orderCreateBody{}, nil, "details: must be an array, not an object"},
		{`{"code":"W","name":"a\u0000b"}`, &warehouseCreateBody{}, nil, "name: must not contain control characters"},
		{"{\"code\":\"W\",\"name\":\"a\xffb\"}", &warehouseCreateBody{}, nil, "name: must be valid UTF-8"},
		{`{"code": "X", "name": `, &warehouseCreateBody{}, nil, "malformed JSON at name (byte 22): unexpected end of JSON input"},
		{`{"number":"B","details":[{"quantity":}]}`, &orderCreateBody{}, nil,
			"malformed JSON at details[0].quantity (byte 37): invalid character '}' at start of value"},
		{`{"code": "X"} {}`, &warehouseCreateBody{}, nil, "malformed JSON at byte 14: unexpected data after the JSON value"},
		{`[{"code": "X"}]`, &warehouseCreateBody{}, nil, "request body must be a JSON object"},
		{``, &warehouseCreateBody{}, nil, "request body is empty: a JSON object is expected"},
	} {
		var body []byte // readBody's nil for no body
		if c.body != "" {
			body = []byte(c.body)
		}
		got := describe(decodeStrict(body, c.dst, c.readOnly...))
		if got != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.body, got, c.want)
		}
	}
}

// describe is an error as a client reads it: the property and its
// message, or the message alone.
func describe(err error) string {
	e, ok := errs.As(err)
	if !ok {
		return fmt.Sprint(err)
	}
	if len(e.Fields) == 1 {
		return e.Fields[0].Property + ": " + e.Fields[0].Message
	}
	return e.Error()
}
