package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/idempotency"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/ports"
)

// jsonDepthAndDuplicates is an independent reading of the JSON rules, with
// encoding/json's tokenizer: the deepest nesting and whether an object
// holds a key twice.
func jsonDepthAndDuplicates(t *testing.T, body []byte) (depth int, duplicate bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // a number too large for a float64 (1E700) is still valid JSON
	type frame struct {
		object   bool
		keys     map[string]bool
		expectKV bool // in an object: the next string is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return depth, duplicate
		}
		if err != nil {
			t.Fatalf("tokenizer on valid JSON: %v", err)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top != nil && top.object {
					top.expectKV = true
				}
				stack = append(stack, &frame{object: v == '{', keys: map[string]bool{}, expectKV: true})
				depth = max(depth, len(stack))
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.object && top.expectKV {
				if top.keys[v] {
					duplicate = true
				}
				top.keys[v] = true
				top.expectKV = false
				continue
			}
		}
		if top != nil && top.object {
			top.expectKV = true
		}
	}
}

// FuzzReadBatch reads arbitrary bodies as a stock batch: never a panic;
// what passes is what an independent reading with encoding/json accepts
// (valid JSON within the depth, without a key twice, an array of 1..1000
// objects), and its fingerprint does not change when the body is written
// anew with other white space, key order and escapes.
func FuzzReadBatch(f *testing.F) {
	for _, seed := range []string{
		`[{"articleDetailId":1,"quantity":5,"warehouse":{"code":"W1"}}]`,
		`[{"id":"op-1","articleDetailId":1,"quantity":-5,"binLocation":{"code":"A\u0007"}}]`,
		`[{"a":1,"a":2}]`,
		`[` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40) + `]`,
		`[{"id":` + strings.Repeat(`{"x":`, 31) + `1` + strings.Repeat(`}`, 31) + `}]`,
		`[{"quantity":9007199254740993,"articleDetailId":2147483648}]`,
		`[{"articleDetailId":1,"quantity":1E700,"comment":{"n":-1e-999}}]`,
		`[{"name":"\ud800"}]`, "[{\"name\":\"\xff\"}]", `[]`, `{}`, `[1,2]`, `nul`, "",
		`[{"source":{"warehouse":{"id":"1"}},"destination":{"binLocation":{"code":"B"}},"quantity":"all","articleDetailId":1}]`,
		`[{"\u00e9":1,"e\u0301":2,"\ud83d\ude00":3,"\uffff":4}]`,
	} {
		f.Add([]byte(seed), "key-1")
	}
	f.Add([]byte(`[{"articleDetailId":1,"quantity":1}]`), strings.Repeat("k", 256))
	f.Add([]byte(`[{"articleDetailId":1,"quantity":1}]`), "a\x01")
	f.Fuzz(func(t *testing.T, body []byte, key string) {
		r := httptest.NewRequest(http.MethodPut, "/api/stock/change/x", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.SetPathValue("idempotencyKey", key)
		_, keyErr := idempotency.ParseKey(key)
		if keyErr == nil && (!utf8.ValidString(key) || utf8.RuneCountInString(key) > 255 || key == "" || strings.ContainsFunc(key, isControl)) {
			t.Fatalf("key %q passed", key)
		}
		req, err := readBatch(httptest.NewRecorder(), r, "stock/change")
		refused := whyRefused(t, body)
		if err != nil {
			if _, ok := errs.As(err); !ok {
				var pe *protocolError
				if !errors.As(err, &pe) {
					t.Fatalf("an error of no kind: %v", err)
				}
			}
			if refused == "" {
				t.Fatalf("refused %q (%v), which encoding/json reads as a batch", body, err)
			}
			return
		}
		if refused != "" {
			t.Fatalf("read %q, which %s", body, refused)
		}
		if n := len(req.operations); n < 1 || n > limit.MaxBatchOperations {
			t.Fatalf("%d operations", n)
		}
		for _, op := range req.operations {
			if err := operationTextProblem(op.fields); err == nil {
				for _, f := range op.fields {
					if f.name == "id" {
						continue
					}
					assertNoControl(t, f.value)
				}
			}
			_, _ = op.check([]string{"articleDetailId", "quantity", "warehouse", "binLocation"})
			_, _ = parseChange(op.fields)
			_, _ = parseRelocation(op.fields)
		}
		if again := fingerprint(rewritten(t, body)); req.meta.Fingerprint != again {
			t.Fatalf("fingerprint %s, but %s for the same body written anew", req.meta.Fingerprint, again)
		}
	})
}

// whyRefused says what keeps body from being a batch, read with
// encoding/json, or "" when nothing does.
func whyRefused(t *testing.T, body []byte) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return "is empty"
	}
	if !json.Valid(body) {
		return "is no JSON"
	}
	if depth, dup := jsonDepthAndDuplicates(t, body); depth > maxJSONDepth || dup {
		return "is nested too deeply or holds a key twice"
	}
	var elements []json.RawMessage
	if err := json.Unmarshal(body, &elements); err != nil || elements == nil {
		return "is no array"
	}
	if len(elements) < 1 || len(elements) > limit.MaxBatchOperations {
		return "has no operation or too many"
	}
	for _, e := range elements {
		if e[0] != '{' {
			return "has an element that is no object"
		}
	}
	return ""
}

// rewritten is body decoded and encoded again by encoding/json: keys
// sorted by their bytes, no white space, strings escaped its way, numbers
// as they were.
func rewritten(t *testing.T, body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// assertNoControl decodes a value that textProblem passed and checks that
// no string in it holds a control character other than the multiline ones.
func assertNoControl(t *testing.T, raw []byte) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", raw, err)
	}
	var walk func(v any, multiline bool)
	walk = func(v any, multiline bool) {
		switch v := v.(type) {
		case string:
			for _, r := range v {
				if isControl(r) && !(multiline && (r == '\t' || r == '\n' || r == '\r')) {
					t.Fatalf("%q passed the text check with %U", raw, r)
				}
			}
		case []any:
			for _, e := range v {
				walk(e, multiline)
			}
		case map[string]any:
			for k, e := range v {
				walk(k, false)
				walk(e, k == "address" || k == "comment")
			}
		}
	}
	walk(v, false)
}

// FuzzTextProblem checks one string, as sent raw between quotes: the check
// finds control characters and what is not UTF-8 (which encoding/json would
// have turned into U+FFFD), and nothing else.
func FuzzTextProblem(f *testing.F) {
	for _, seed := range []string{`plain`, `a\u0000b`, `tab\there`, `\ud83d\ude00`, `\ud800`, `\udc00`, "\xff", "ä", `\u007f`, `\uFFFD`, "\uFFFD", `\\u0001`, `\"`, `\u00`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		for _, name := range []string{"name", "address"} {
			body := []byte(`{"` + name + `":"` + content + `"}`)
			if !json.Valid(body) {
				return
			}
			_, _, found := textProblem(body, "")
			var decoded map[string]string
			if err := json.Unmarshal(body, &decoded); err != nil {
				t.Fatal(err)
			}
			s := decoded[name]
			control := strings.ContainsFunc(s, func(r rune) bool {
				return isControl(r) && !(name == "address" && (r == '\t' || r == '\n' || r == '\r'))
			})
			replaced := strings.Count(s, "\uFFFD") > strings.Count(content, "\uFFFD")+strings.Count(strings.ToLower(content), `\ufffd`)
			if control && !found {
				t.Fatalf("%q: control character not found", content)
			}
			if replaced && !found {
				t.Fatalf("%q: bad UTF-8 not found", content)
			}
			if found && !control && !replaced && utf8.ValidString(content) {
				t.Fatalf("%q: a problem found in a fine string", content)
			}
		}
	})
}

// FuzzParseList reads arbitrary query strings as list parameters: never a
// panic, and what passes keeps every cap.
func FuzzParseList(f *testing.F) {
	for _, seed := range []string{
		"filter[0][property]=order.id&filter[0][value]=5",
		"filter[0][property]=order.id&filter[0][expression]=IN&filter[0][value]=1,2,3",
		"filter[0][property]=order.id&filter[0][value]=2147483648",
		"filter[0][property]=order.number&filter[0][expression]=LIKE&filter[0][value]=%25a%25",
		"sort[0][property]=order.id&sort[0][direction]=DESC&start=10&limit=5",
		"filter[0][property]=order.id&filter[0][value][]=1&filter[0][value][]=2&filter[0][expression]=NOT IN",
		"filter[99999999999999999999][property]=order.id&filter[99999999999999999999][value]=1",
		"filter[0][property]=order.status&filter[0][expression]=IS NULL",
		"filter[0][property]=order.id;x=1", "a=%zz", "limit=-1", "start=99999999999",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		values, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := parseList(values, ports.OrderFields)
		if err != nil {
			if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid {
				t.Fatalf("%q: an error that is no 400: %v", raw, err)
			}
			return
		}
		if len(q.Filters) > limit.MaxFilters || len(q.Sorts) > limit.MaxSorts || q.Limit < 1 || q.Limit > maxLimit || q.Start < 0 {
			t.Fatalf("%q passed: %+v", raw, q)
		}
		for _, f := range q.Filters {
			if len(f.Values) > limit.MaxInValues {
				t.Fatalf("%q: %d values", raw, len(f.Values))
			}
			if _, known := ports.OrderFields[f.Property]; !known {
				t.Fatalf("%q: unknown property %q passed", raw, f.Property)
			}
			for _, v := range f.Values {
				if n, ok := v.(int64); ok && isIDProperty(f.Property) && (n < 1 || n > maxID) {
					t.Fatalf("%q: id %d passed", raw, n)
				}
				if s, ok := v.(string); ok && strings.IndexByte(s, 0) >= 0 {
					t.Fatalf("%q: NUL passed", raw)
				}
			}
		}
	})
}
