package http

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// What a batch reader gets for one operation: the offending property's
// path and the rule, the free-form id left alone.
func TestOperationTextProblem(t *testing.T) {
	for _, tc := range []struct {
		op   string
		want string // "" for no problem
	}{
		{`{"id":"free\u0001form","articleDetailId":1,"quantity":2}`, ""},
		{`{"articleDetailId":1,"binLocation":{"code":"A\u0007","warehouseCode":"W"}}`, "binLocation.code must not contain control characters"},
		{`{"source":{"warehouse":{"code":"\ud800"}}}`, "source.warehouse.code must be valid UTF-8"},
		{"{\"warehouse\":{\"code\":\"\xff\"}}", "warehouse.code must be valid UTF-8"},
		{`{"comment":"tab\there"}`, ""},
		{`{"name":"tab\there"}`, "name must not contain control characters"},
		{`{"list":["ok","no\u001f"]}`, "list[1] must not contain control characters"},
		{`{"lot":{"x":{"0":["\u007f"]}}}`, "lot.x.0[0] must not contain control characters"},
		{`{"lot":{"x":{"comment":"a\r\n"},"a.b":{"comment":"\t"}}}`, ""},
		{`{"lot":{"comment":["\t"]}}`, "lot.comment[0] must not contain control characters"},
		{"{\"lot\":{\"a\\n\xff\":1}}", `property name "lot.a\n\ufffd" must be valid UTF-8`},
		{"{\"lot\":{\"\xff\":1}}", `property name "lot.\xff" must be valid UTF-8`},
		// The rule of domain/code: UTF-8 first, then control characters.
		{"{\"name\":\"\\u0001\xff\"}", "name must be valid UTF-8"},
	} {
		if !json.Valid([]byte(tc.op)) {
			t.Fatalf("%s is not valid JSON", tc.op)
		}
		fields, err := splitObject(nil, []byte(tc.op))
		if err != nil {
			t.Fatal(err)
		}
		err = operationTextProblem(fields)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.op, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.op, err, tc.want)
		}
	}
}

func TestCheckJSONShape(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	// keys k0…k(n-1), then extra: the decoder compares the keys of a small
	// object in turn, those of a large one (over 64) through a map.
	wide := func(n int, extra string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		return b.String() + extra + "}"
	}
	for _, tc := range []struct {
		body string
		ok   bool
	}{
		{deep(32), true},
		{deep(33), false},
		{`{"a":` + deep(31) + `}`, true},
		{`{"a":` + deep(32) + `}`, false},
		{`{"a":1,"b":{"a":2}}`, true},
		{`{"a":1,"a":1}`, false},
		{`{"a":1,"\u0061":1}`, false},
		{`[{"a":1},{"a":1}]`, true},
		{`{"a":"\"a\":1","b":1}`, true},
		{`{"a" : 1 , "a" : 2}`, false},
		{wide(16, `"k0":1`), false},
		{wide(16, `"k15":1`), false},
		{wide(16, `"k16":1`), true},
		{wide(40, `"k3":1`), false},
		{wide(40, `"k39":1`), false},
		{wide(40, `"x":1`), true},
		{wide(70, `"k3":1`), false},
		{wide(70, `"k69":1`), false},
		{wide(70, `"x":1`), true},
		{"{\"a\":1,\"\xff\":2,\"\xfe\":3}", false}, // bad UTF-8 reads as U+FFFD
		{`[{"a":1,"a":2},` + deep(40), true},       // no JSON: for the decoder to report
		{`[{"a":1,"a":2},` + deep(40) + `]`, false},
		{`[{"a":1,"a":2}] x`, true},
		{`[` + wide(20, `"x":1`) + `,` + wide(20, `"x":1`) + `]`, true},
	} {
		err := checkJSONShape([]byte(tc.body))
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.body, err)
		}
	}
}
