package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/domain/stock"
)

// The batch reader against the independent reference
// (batch_reference_test.go): the same status and message for a body refused
// as a whole, else the same fingerprint and operations, each with the same
// id, problem (word for word) and parsed operation, for each stock endpoint.

type readOutcome struct {
	status      int
	body        map[string]any // the error's JSON body
	fingerprint string
	ops         []opOutcome
}

type opOutcome struct {
	id      string
	problem string
	op      stock.Operation
}

type stockParsers struct {
	allowed []string
	parse   func(*batchArena, jsonFields) (stock.Operation, error)
	ref     func(refFields) (stock.Operation, error)
}

var equivalenceEndpoints = []stockParsers{
	{[]string{"articleDetailId", "quantity", "warehouse", "binLocation"}, parseChange, refQuantityAt("articleDetailId", false)},
	{[]string{"articleDetailId", "quantity", "warehouse", "binLocation"}, parseSet, refQuantityAt("articleDetailId", true)},
	{[]string{"articleDetailId", "quantity", "source", "destination"}, parseRelocation, refRelocation},
	{[]string{"orderDetailId", "quantity", "warehouse", "binLocation"}, func(a *batchArena, f jsonFields) (stock.Operation, error) {
		op, err := parseDetailShipment(a, f)
		return stock.Change{ArticleDetailID: op.OrderDetailID, At: op.From, Quantity: op.Quantity}, err
	}, refQuantityAt("orderDetailId", false)},
}

func batchRequestFor(body []byte, contentType string) *http.Request {
	r := httptest.NewRequest(http.MethodPut, "/api/stock/change/k", bytes.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	return r
}

// readNew reads body with the reader, a refusal answered as the handler
// answers it.
func readNew(body []byte, contentType string, e stockParsers) readOutcome {
	r := batchRequestFor(body, contentType)
	req, err := readBatch(httptest.NewRecorder(), r, "stock/change")
	if err != nil {
		w := httptest.NewRecorder()
		(&Handler{log: zap.NewNop()}).writeError(w, r, err)
		out := readOutcome{status: w.Code}
		if err := json.Unmarshal(w.Body.Bytes(), &out.body); err != nil {
			out.body = map[string]any{"unreadable": w.Body.String()}
		}
		return out
	}
	out := readOutcome{fingerprint: req.meta.Fingerprint}
	for _, op := range req.operations {
		id, err := op.check(e.allowed)
		var parsed stock.Operation
		if err == nil {
			parsed, err = e.parse(req.arena, op.fields)
		}
		o := opOutcome{id: string(id), op: parsed}
		if err != nil {
			o.problem, o.op = err.Error(), nil
		}
		out.ops = append(out.ops, o)
	}
	return out
}

func readReference(body []byte, contentType string, e stockParsers) readOutcome {
	ref := refRead(body, contentType)
	if ref.status != 0 {
		return readOutcome{status: ref.status, body: map[string]any{"success": false, "message": ref.message}}
	}
	out := readOutcome{fingerprint: ref.fingerprint}
	for _, fields := range ref.operations {
		id, op, problem := refOperation(fields, e.allowed, e.ref)
		out.ops = append(out.ops, opOutcome{id: string(id), problem: problem, op: op})
	}
	return out
}

// compareReaders fails when the readers differ on body in anything.
func compareReaders(t *testing.T, body []byte) {
	t.Helper()
	compareReadersAs(t, body, "application/json")
}

func compareReadersAs(t *testing.T, body []byte, contentType string) {
	t.Helper()
	for _, e := range equivalenceEndpoints {
		got, want := readNew(body, contentType, e), readReference(body, contentType, e)
		if got.status != want.status || !reflect.DeepEqual(got.body, want.body) || got.fingerprint != want.fingerprint || len(got.ops) != len(want.ops) {
			t.Fatalf("body %q:\n got  %d %v %s %d ops\n want %d %v %s %d ops", shown(body),
				got.status, got.body, got.fingerprint, len(got.ops), want.status, want.body, want.fingerprint, len(want.ops))
		}
		for i := range got.ops {
			g, w := got.ops[i], want.ops[i]
			if g.id != w.id || g.problem != w.problem || !reflect.DeepEqual(g.op, w.op) {
				t.Fatalf("body %q, operation %d (allowed %v):\n got  %q %q %+v\n want %q %q %+v", shown(body), i, e.allowed, g.id, g.problem, g.op, w.id, w.problem, w.op)
			}
		}
	}
}

// shown is body for a message: its start when it is long.
func shown(body []byte) []byte {
	if len(body) > 300 {
		return append(body[:300:300], "…"...)
	}
	return body
}

func TestBatchReaderAgreesWithReferenceOnSamples(t *testing.T) {
	for _, body := range []string{
		``, ` `, `[]`, `{}`, `[1]`, `[{}, 2]`, `"x"`, `nul`, `null`, `[{"a":1}`, `[{"a":1}]]`, `[{"a":1},]`, `[{,}]`,
		`[{"articleDetailId":1,"quantity":5,"warehouse":{"code":"W1"}}]`,
		`[{"id":"op-1","articleDetailId":1,"quantity":-5,"binLocation":{"code":"A\u0007"}}]`,
		`[{"a":1,"a":2}]`, `[{"a":1,"\u0061":2}]`, `[{"\u0062":1,"\u0062":2}]`, "[{\"\xff\":1,\"\\ud800\":2}]", "[{\"\xff\":1,\"\xfe\":2}]",
		`[{"\ud800":1,"\udc00":2}]`, `[{"a":{"b":1,"b":2}}]`, `[{"a":1,"a":2}] x`, `[{"a":1,"a":2}, x]`,
		`[` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40) + `]`,
		`[` + strings.Repeat(`[`, 31) + strings.Repeat(`]`, 31) + `]`,
		`[` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `]`,
		`[` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 39) + `]`,
		`[{"id":` + strings.Repeat(`{"x":`, 31) + `1` + strings.Repeat(`}`, 31) + `}]`,
		`[{"id":` + strings.Repeat(`{"x":`, 30) + `1` + strings.Repeat(`}`, 30) + `}]`,
		`[{"quantity":9007199254740993,"articleDetailId":2147483648}]`,
		`[{"quantity":1.0,"articleDetailId":1e0,"warehouse":{"id":-0}}]`,
		`[{"quantity":-0,"articleDetailId":0001}]`, `[{"quantity":999999999999999999999,"articleDetailId":-999999999999999999}]`,
		`[{"name":"\ud800"}]`, "[{\"name\":\"\xff\"}]", `[1,2]`,
		`[{"source":{"warehouse":{"id":"1"}},"destination":{"binLocation":{"code":"B"}},"quantity":"all","articleDetailId":1}]`,
		`[{"source":{"warehouse":{"id":"1"}},"destination":{"binLocation":{"code":"B","warehouseId":" 7 "}},"quantity":"all","articleDetailId":1}]`,
		`[{"articleDetailId":1,"quantity":1,"binLocation":{"code":"B","warehouseId":"7"}}]`,
		`[{"articleDetailId":1,"quantity":1,"binLocation":{"code":"B\u00e4","warehouseCode":"W\/1"}}]`,
		`[{"articleDetailId":1,"quantity":1,"binLocation":{"code":"","warehouseCode":"W"}}]`,
		`[{"articleDetailId":1,"quantity":1,"binLocation":{"code":1,"warehouseCode":"W"}}]`,
		`[{"articleDetailId":1,"quantity":1,"binLocation":[],"warehouse":{"id":1}}]`,
		`[{"articleDetailId":1,"quantity":1,"binLocation":{"x":1}}]`,
		`[{"id": [1, 2 ], "articleDetailId":1,"quantity":1,"warehouse":{"id":1}}]`,
		`[{"id": {"a" : "b"}, "articleDetailId":1,"quantity":1,"foo":1}]`,
		`[ { "quantity" : 1 , "articleDetailId" : 1 , "warehouse" : { "id" : 1 } } ]`,
		"[{\"comment\":\"a\\tb\",\"name\":\"a\\tb\"}]", `[{"z":"\u0001","a":"\u0002"}]`,
		`[{"b":{"k\u0001":1}}]`, `[{"quantity":"all"}]`, `[{"quantity":"1"}]`, `[{"quantity":true}]`,
		`[{"articleDetailId":null,"quantity":null}]`, `[{"articleDetailId":1,"quantity":1,"warehouse":null,"binLocation":null}]`,
		`[1.5e+3, -0.0E-0, true, false, null, "s"]`, `[01]`, `[1.]`, `[.5]`, `[-]`, `[1e]`, `[1e+]`, `["\x"]`, `["\u12"]`, `["\u12G4"]`,
		"[\"a\x01\"]", "[\"a\x7f\"]", `[tru]`, `[nulll]`, `[{"a"}]`, `[{"a":}]`, `[{1:2}]`, `[{"a":1 "b":2}]`, `[] []`,
		"\t[{\"a\":1}]\r\n", `[{"` + strings.Repeat(`k`, 100) + `":1}]`,
	} {
		compareReaders(t, []byte(body))
	}
	compareReaders(t, thousandOperations())
	compareReaders(t, []byte(`[`+strings.Repeat(`{},`, 1000)+`{}]`))
	compareReaders(t, []byte(`[`+strings.Repeat(`{},`, 999)+`1]`))
	wide := func(n int, extra string) string {
		var b strings.Builder
		b.WriteString(`[{`)
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		return b.String() + extra + `}]`
	}
	for _, extra := range []string{`"k0":1`, `"k15":1`, `"k16":1`, `"k3":1`, `"x":1`, `"\u006b3":1`} {
		compareReaders(t, []byte(wide(16, extra)))
		compareReaders(t, []byte(wide(40, extra)))
	}
}

// What the request as a whole may get wrong: its media type, its size, the
// NUL character, in raw and escaped form.
func TestBatchReaderAgreesWithReferenceOnTheRequest(t *testing.T) {
	ok := `[{"articleDetailId":1,"quantity":1,"warehouse":{"id":1}}]`
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON", "", "text/plain", "application/json;;", "application/jsonx"} {
		compareReadersAs(t, []byte(ok), ct)
		compareReadersAs(t, []byte(" "), ct)
		compareReadersAs(t, []byte("[1"), ct)
	}
	for _, body := range []string{"[{\"a\":\"\x00\"}]", `[{"a":"\u0000"}]`, `[{"a":"\U0000"}]`, "\x00", `[{"a":"x\\u0000"}]`, `[{"a":1}]` + "\x00"} {
		compareReaders(t, []byte(body))
	}
	padded := func(n int) []byte { return append([]byte(ok), bytes.Repeat([]byte(" "), n-len(ok))...) }
	compareReaders(t, padded(8<<20))
	compareReaders(t, padded(8<<20+1))
}

// TestBatchReaderAgreesWithReferenceOnGeneratedBodies compares the readers
// on batches built from pieces, good and broken.
func TestBatchReaderAgreesWithReferenceOnGeneratedBodies(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 2026))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for range n {
		body := generatedBatch(rng)
		compareReaders(t, body)
		// The same body cut short, or with one byte changed.
		if len(body) > 1 {
			compareReaders(t, body[:rng.IntN(len(body))])
			mutated := bytes.Clone(body)
			const bytesToTry = "{}[]\":,\\ 0-.eE\x01\x7f\xffa"
			mutated[rng.IntN(len(mutated))] = bytesToTry[rng.IntN(len(bytesToTry))]
			compareReaders(t, mutated)
		}
	}
}

func generatedBatch(rng *rand.Rand) []byte {
	pick := func(options ...string) string { return options[rng.IntN(len(options))] }
	str := func() string {
		return pick(`"W1"`, `"B7"`, `""`, `"a\u0007"`, `"\ud800"`, "\"\xff\"", `"ä"`, `"\u00e4"`, `"tab\tx"`, `"\\"`, `"q\"x"`, `"\/"`, `"\ud83d\ude00"`, `"\u007f"`, "\"\x7f\"")
	}
	num := func() string {
		if rng.IntN(3) != 0 {
			return pick(`1`, `5`, `-2`, `17`, `2147483647`)
		}
		return pick(`1`, `0`, `-1`, `5`, `-0`, `1.0`, `1e0`, `2147483647`, `2147483648`, `9007199254740993`, `99999999999999999999`, `-5`, `1.5`, `1E2`, `"3"`, `" 4 "`, `"all"`, `null`, `true`, `[]`, `{}`)
	}
	space := func() string { return pick(``, ``, ``, ` `, "\n\t", ` `) }
	var value func(depth int) string
	value = func(depth int) string {
		switch rng.IntN(8) {
		case 0, 1:
			return str()
		case 2, 3:
			return num()
		case 4:
			if depth > 0 {
				return `[` + value(depth-1) + `,` + space() + value(depth-1) + `]`
			}
			return `[]`
		default:
			if depth > 0 {
				return `{"` + pick("code", "id", "x", "warehouseId", "comment") + `":` + space() + value(depth-1) + `}`
			}
			return `{}`
		}
	}
	location := func() string {
		var members []string
		for _, name := range []string{"id", "code", "warehouseId", "warehouseCode", "extra"} {
			if rng.IntN(3) == 0 || name == "extra" && rng.IntN(20) != 0 {
				continue
			}
			v := num()
			if name == "code" || name == "warehouseCode" || rng.IntN(10) == 0 {
				v = str()
				if rng.IntN(3) != 0 {
					v = pick(`"W1"`, `"B7"`, `"A-1"`)
				}
			}
			members = append(members, `"`+name+`":`+space()+v)
		}
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		return `{` + strings.Join(members, `,`+space()) + `}`
	}
	locationValue := func() string {
		switch rng.IntN(10) {
		case 0:
			return `null`
		case 1:
			return value(2)
		default:
			return location()
		}
	}
	var relocation bool
	operation := func() string {
		var members []string
		add := func(name, v string) { members = append(members, `"`+name+`"`+space()+`:`+space()+v) }
		if rng.IntN(2) == 0 {
			add("id", pick(`1`, `"op-1"`, `[1, 2]`, `{"a" : "b\u0001"}`, `null`, `-3`))
		}
		add(pick("articleDetailId", "articleDetailId", "articleDetailId", "orderDetailId"), num())
		if rng.IntN(10) != 0 {
			add("quantity", num())
		}
		places := []string{"warehouse", "binLocation"}
		if relocation {
			places = []string{"source", "destination"}
		}
		for _, name := range places {
			if rng.IntN(4) != 0 {
				if name == "source" || name == "destination" {
					add(name, pick(`{"warehouse":`+locationValue()+`}`, `{"binLocation":`+locationValue()+`}`, `{"binLocation":`+locationValue()+`,"warehouse":`+locationValue()+`}`, `{"x":1}`, `null`, `[]`))
				} else {
					add(name, locationValue())
				}
			}
		}
		if rng.IntN(12) == 0 {
			add(pick("foo", "comment", "name", "\u00e4", `\u0061`, `k\u0001`), value(2))
		}
		if rng.IntN(40) == 0 && len(members) > 0 {
			members = append(members, members[rng.IntN(len(members))]) // a repeated key
		}
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		return `{` + space() + strings.Join(members, space()+`,`+space()) + space() + `}`
	}
	relocation = rng.IntN(3) == 0
	ops := make([]string, rng.IntN(6)+1)
	for i := range ops {
		ops[i] = operation()
		if rng.IntN(50) == 0 {
			ops[i] = value(3)
		}
	}
	return []byte(space() + `[` + strings.Join(ops, `,`+space()) + `]` + space())
}

// FuzzBatchReaderAgreesWithReference compares the readers on any body.
func FuzzBatchReaderAgreesWithReference(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(generatedBatch(rng))
	}
	for _, seed := range []string{`[{"a":1,"a":2}]`, `[{"\u0061":1,"a":2}]`, `[` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40) + `]`, `[1]`, `[]`, `{}`, `[{"id":1}] 1`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		compareReaders(t, body)
	})
}
