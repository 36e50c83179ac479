package test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestHTTPFuzz sends thousands of random malformed requests (wrong types,
// huge and negative numbers, control characters, deep nesting, bad filters,
// bad auth, wrong methods and content types) and asserts that none is
// answered with a 5xx other than 503, that every answer is one the OpenAPI
// document allows, and that the stock invariants hold afterwards. The
// generator is seeded: INVENTORY_FUZZ_SEED=n reproduces a run,
// INVENTORY_FUZZ_REQUESTS=n changes its length.
func TestHTTPFuzz(t *testing.T) {
	seed := uint64(20261123)
	if s := os.Getenv("INVENTORY_FUZZ_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("INVENTORY_FUZZ_SEED: %v", err)
		}
		seed = n
	}
	requests := 3000
	if s := os.Getenv("INVENTORY_FUZZ_REQUESTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("INVENTORY_FUZZ_REQUESTS: %v", err)
		}
		requests = n
	}
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		t.Parallel()
		t.Logf("seed %d (INVENTORY_FUZZ_SEED), %d requests", seed, requests)
		// Failed attempts come from many forwarded addresses, so that a
		// lockout of one address does not end the run early.
		env := apitest.NewWithConfig(t, databaseURL, httpapi.Config{
			TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")},
		})
		f := newHTTPFuzzer(t, env, seed)
		start := time.Now()
		statuses := map[int]int{}
		for i := 0; i < requests; i++ {
			req, what, documented := f.request()
			var res *apitest.Response
			if documented {
				res = env.DoRaw(t, req) // and checked against the OpenAPI document
			} else {
				res = sendUnchecked(t, req)
			}
			statuses[res.Status]++
			if res.Status >= 500 && res.Status != http.StatusServiceUnavailable {
				t.Errorf("request %d (%s %s, %s): %s", i, req.Method, req.URL.RequestURI(), what, res)
			}
		}
		t.Logf("%d requests in %v: %v", requests, time.Since(start).Round(time.Millisecond), statuses)
		if statuses[http.StatusBadRequest] < requests/10 {
			t.Errorf("only %d answers were 400: the generator hardly reaches validation", statuses[http.StatusBadRequest])
		}
		if statuses[http.StatusOK]+statuses[http.StatusCreated] == 0 {
			t.Error("no request succeeded: the generator reaches nothing behind validation")
		}
		checkStockInvariants(t, env)
	})
}

type httpFuzzer struct {
	t          *testing.T
	env        *apitest.Env
	rng        *rand.Rand
	ids        []int64 // ids that exist (warehouses, bins, articles, orders)
	codes      []string
	wrongKeys  int
	xffCounter int
}

func newHTTPFuzzer(t *testing.T, env *apitest.Env, seed uint64) *httpFuzzer {
	f := &httpFuzzer{t: t, env: env, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	wh := whCreated(t, env, env.Do(t, "POST", "/api/warehouses", map[string]any{
		"code": "FZ", "name": "Fuzz", "binLocationFormatComponents": []any{
			map[string]any{"type": "text", "value": "F-"}, map[string]any{"type": "number", "from": 1, "to": 5},
		},
	}), "/api/warehouses", true)
	whOK(t, env.Do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", wh), nil))
	art := whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "FZ-1", "name": "Fuzz"}), "/api/articleDetails", false)
	whOK(t, env.Do(t, "PUT", "/api/stock/set/fuzz-seed", []any{
		map[string]any{"articleDetailId": art, "quantity": 50, "binLocation": map[string]any{"code": "F-1", "warehouseCode": "FZ"}},
	}))
	whCreated(t, env, env.Do(t, "POST", "/api/orders", map[string]any{
		"number": "FZ-O1", "customerEmail": "a@example.com", "details": []any{map[string]any{"articleDetailId": art, "quantity": 3}},
	}), "/api/orders", false)
	f.ids = []int64{1, 2, 3, 4, 5, 6, 7, wh, art}
	f.codes = []string{"FZ", "F-1", "F-2", "F-3", "erp_null_bin_location", "FZ-1", "FZ-O1"}
	return f
}

func (f *httpFuzzer) pick(n int) int { return f.rng.IntN(n) }

func (f *httpFuzzer) chance(p float64) bool { return f.rng.Float64() < p }

// number is an integer JSON value, often out of every range.
func (f *httpFuzzer) number() string {
	switch f.pick(14) {
	case 0:
		return "0"
	case 1:
		return "-1"
	case 2:
		return "2147483648"
	case 3:
		return "4294967297"
	case 4:
		return "9007199254740993"
	case 5:
		return "-9223372036854775808"
	case 6:
		return "99999999999999999999999"
	case 7:
		return "1e3"
	case 8:
		return "1.5"
	case 9:
		return "1000000001"
	case 10:
		return "-1000000000"
	case 11:
		return "2000000000"
	default:
		return strconv.FormatInt(f.ids[f.pick(len(f.ids))], 10)
	}
}

// text is a JSON string, often with control characters or bad UTF-8.
func (f *httpFuzzer) text() string {
	switch f.pick(12) {
	case 0:
		return `"a\u0000b"`
	case 1:
		return `"line\nbreak"`
	case 2:
		return "\"bad \xff\xfe utf8\""
	case 3:
		return `"\ud800"`
	case 4:
		return `"` + strings.Repeat("x", 256) + `"`
	case 5:
		return `""`
	case 6:
		return `"\u007f\u001b[31m"`
	case 7:
		return `"` + strings.Repeat("ü", 300) + `"`
	case 8:
		return `"it's \\ a ' quote"`
	default:
		return strconv.Quote(f.codes[f.pick(len(f.codes))])
	}
}

// value is any JSON value, nested at most depth levels more.
func (f *httpFuzzer) value(depth int) string {
	switch f.pick(10) {
	case 0, 1, 2:
		return f.number()
	case 3, 4, 5:
		return f.text()
	case 6:
		return []string{"true", "false", "null", `"all"`}[f.pick(4)]
	case 7:
		if depth > 0 {
			return "[" + f.value(depth-1) + "]"
		}
		return "[]"
	case 8:
		if depth > 0 {
			return f.object(depth-1, fieldNames)
		}
		return "{}"
	default:
		return f.nested(20 + f.pick(20))
	}
}

// nested is an array nested around the limit of 32 levels.
func (f *httpFuzzer) nested(levels int) string {
	return strings.Repeat("[", levels) + strings.Repeat("]", levels)
}

var fieldNames = []string{
	"id", "code", "name", "number", "quantity", "articleDetailId", "warehouseId", "warehouse", "binLocation",
	"source", "destination", "orderDetailId", "details", "status", "shipped", "customerEmail", "email",
	"address", "comment", "contact", "phone", "stockAvailableForSale", "binLocationFormatComponents",
	"type", "value", "from", "to", "padding", "defaultMapping", "warehouseCode", "suppressStatusMail", "unknown",
}

// object is a JSON object of some of the names, sometimes one twice.
func (f *httpFuzzer) object(depth int, names []string) string {
	var b strings.Builder
	b.WriteByte('{')
	n := f.pick(6)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		name := names[f.pick(len(names))]
		b.WriteString(strconv.Quote(name) + ":")
		switch name {
		case "warehouse", "binLocation", "source", "destination":
			if depth > 0 && f.chance(0.7) {
				b.WriteString(f.object(depth-1, []string{"id", "code", "warehouseId", "warehouseCode", "warehouse", "binLocation"}))
				continue
			}
		case "details":
			if depth > 0 && f.chance(0.7) {
				b.WriteString("[" + f.object(depth-1, []string{"id", "articleDetailId", "quantity", "shipped", "status"}) + "]")
				continue
			}
		case "binLocationFormatComponents":
			if depth > 0 && f.chance(0.7) {
				b.WriteString("[" + f.object(depth-1, []string{"type", "value", "from", "to", "padding"}) + "]")
				continue
			}
		}
		b.WriteString(f.value(depth))
	}
	if n > 0 && f.chance(0.05) {
		b.WriteString(`,"quantity":1,"quantity":2`)
	}
	b.WriteByte('}')
	return b.String()
}

// body is a request body for the endpoint: mostly near what it wants.
func (f *httpFuzzer) body(batch bool) string {
	switch {
	case f.chance(0.05):
		return ""
	case f.chance(0.05):
		return []string{`{`, `[`, `nul`, `"x"`, `{"a":1} trailing`, "\x00", `{"a":"\u0000"}`}[f.pick(7)]
	case f.chance(0.03):
		return "{\"a\":" + f.nested(40) + "}"
	case batch && f.chance(0.9):
		n := 1 + f.pick(4)
		if f.chance(0.02) {
			n = 1001
		}
		ops := make([]string, n)
		for i := range ops {
			if f.chance(0.5) {
				ops[i] = f.nearlyValidOperation()
				continue
			}
			ops[i] = f.object(3, fieldNames)
		}
		return "[" + strings.Join(ops, ",") + "]"
	}
	return f.object(3, fieldNames)
}

// nearlyValidOperation is a stock operation of the right shape whose
// numbers are often out of range (quantities past 1000000000, ids past
// int32, stock pushed toward its limit), so that it gets past the reader to
// the domain and the database.
func (f *httpFuzzer) nearlyValidOperation() string {
	quantity := "5"
	if f.chance(0.7) {
		quantity = f.batchNumber()
	}
	article := strconv.FormatInt(f.ids[len(f.ids)-1], 10)
	if f.chance(0.3) {
		article = f.batchNumber()
	}
	bin := []string{`"F-1"`, `"F-2"`, `"F-3"`}[f.pick(3)]
	switch f.pick(4) {
	case 0:
		return `{"articleDetailId":` + article + `,"quantity":` + quantity + `,"binLocation":{"code":` + bin + `,"warehouseCode":"FZ"}}`
	case 1:
		return `{"articleDetailId":` + article + `,"quantity":` + quantity + `,"warehouse":{"code":"FZ"}}`
	case 2:
		return `{"articleDetailId":` + article + `,"quantity":` + quantity + `,"source":{"binLocation":{"code":` + bin +
			`,"warehouseCode":"FZ"}},"destination":{"binLocation":{"code":"F-4","warehouseCode":"FZ"}}}`
	default:
		return `{"orderDetailId":` + f.batchNumber() + `,"quantity":` + quantity + `,"warehouse":{"code":"FZ"}}`
	}
}

// batchNumber is a number for a nearly valid batch operation: half the time
// one of the fuzzer's hostile numbers, else a small or a known one.
func (f *httpFuzzer) batchNumber() string {
	if f.chance(0.5) {
		return f.number()
	}
	return []string{"0", "-1", "1", "3", "-5", "1000000000", "-1000000000", "999999999", "1e3", "1.5", "\"7\"",
		strconv.FormatInt(f.ids[f.pick(len(f.ids))], 10)}[f.pick(12)]
}

// pathID is an id as it appears in a path.
func (f *httpFuzzer) pathID() string {
	switch f.pick(10) {
	case 0:
		return "0"
	case 1:
		return "-1"
	case 2:
		return "2147483648"
	case 3:
		return "99999999999999999999"
	case 4:
		return "abc"
	case 5:
		return "%00"
	default:
		return strconv.FormatInt(f.ids[f.pick(len(f.ids))], 10)
	}
}

func (f *httpFuzzer) idempotencyKey() string {
	switch f.pick(8) {
	case 0:
		return strings.Repeat("k", 256)
	case 1:
		return "a%01b"
	case 2:
		return "%FF"
	case 3:
		return "fuzz-replayed"
	default:
		return fmt.Sprintf("fuzz-%d", f.rng.Uint64())
	}
}

// query is a list query string, often malformed or over a cap.
func (f *httpFuzzer) query() string {
	props := []string{"warehouse.id", "warehouse.code", "binLocation.warehouseId", "order.id", "order.status",
		"articleDetail.number", "stockLedgerEntry.quantity", "stockLedgerEntry.createdAt", "nope", "warehouse.id\x00"}
	exprs := []string{"=", "<>", "LIKE", "IN", "NOT IN", "IS NULL", ">", "DROP", "!="}
	switch f.pick(10) {
	case 0:
		return "filter[0][property]=order.id&filter[0][value]=%zz"
	case 1:
		return "filter[0][property]=order.id;filter[0][value]=1"
	case 2:
		var kv []string
		for i := 0; i < 51+f.pick(3); i++ {
			kv = append(kv, fmt.Sprintf("filter[%d][property]=warehouse.code&filter[%d][value]=x", i, i))
		}
		return strings.Join(kv, "&")
	case 3:
		return "sort[0][property]=warehouse.code&sort[0][direction]=sideways&limit=-5&start=abc"
	case 4:
		vals := make([]string, 1001)
		for i := range vals {
			vals[i] = strconv.Itoa(i + 1)
		}
		return "filter[0][property]=warehouse.id&filter[0][expression]=IN&filter[0][value]=" + strings.Join(vals, ",")
	}
	q := url.Values{}
	for i := 0; i < 1+f.pick(3); i++ {
		p := fmt.Sprintf("filter[%d]", i)
		q.Set(p+"[property]", props[f.pick(len(props))])
		q.Set(p+"[expression]", exprs[f.pick(len(exprs))])
		v := f.number()
		if f.chance(0.3) {
			v = strings.Trim(f.text(), `"`)
		}
		q.Set(p+"[value]", v)
	}
	if f.chance(0.3) {
		q.Set("sort[0][property]", props[f.pick(len(props))])
	}
	if f.chance(0.2) {
		q.Set("useNumberAsId", []string{"1", "true", "maybe"}[f.pick(3)])
	}
	return q.Encode()
}

// sendUnchecked sends a request whose answer the OpenAPI document cannot
// predict: a route or method it does not list, met first by a failed
// authentication or by headers over the limit.
func sendUnchecked(t *testing.T, req *http.Request) *apitest.Response {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &apitest.Response{Status: res.StatusCode, Header: res.Header, Body: body}
}

// request builds one random request, says what kind it is, and whether
// the OpenAPI document tells what its answer must be.
func (f *httpFuzzer) request() (*http.Request, string, bool) {
	type endpoint struct {
		method, path string
		batch        bool
	}
	id := f.pathID
	endpoints := []endpoint{
		{"GET", "/api/warehouses", false}, {"POST", "/api/warehouses", false},
		{"GET", "/api/warehouses/" + id(), false}, {"PUT", "/api/warehouses/" + id(), false},
		{"DELETE", "/api/warehouses/" + id(), false}, {"PUT", "/api/warehouses/" + id() + "/default", false},
		{"PUT", "/api/warehouses/" + id() + "/defaultReturnShipment", false},
		{"POST", "/api/warehouses/" + id() + "/binLocations/generate", false},
		{"GET", "/api/binLocations", false}, {"POST", "/api/binLocations", false},
		{"GET", "/api/binLocations/" + id(), false}, {"PUT", "/api/binLocations/" + id(), false},
		{"DELETE", "/api/binLocations/" + id(), false},
		{"PUT", "/api/binLocations/" + id() + "/articleDetails/" + id(), false},
		{"PUT", "/api/stock/set/" + f.idempotencyKey(), true}, {"PUT", "/api/stock/change/" + f.idempotencyKey(), true},
		{"PUT", "/api/stock/relocate/" + f.idempotencyKey(), true},
		{"PUT", "/api/orderDetails/ship/" + f.idempotencyKey(), true},
		{"GET", "/api/stockLedgerEntries", false},
		{"GET", "/api/articleDetails", false}, {"POST", "/api/articleDetails", false},
		{"GET", "/api/articleDetails/" + id(), false}, {"PUT", "/api/articleDetails/" + id(), false},
		{"DELETE", "/api/articleDetails/" + id(), false},
		{"GET", "/api/orders", false}, {"POST", "/api/orders", false},
		{"GET", "/api/orders/" + id(), false}, {"PUT", "/api/orders/" + id() + "/ship", false},
		{"GET", "/nowhere", false}, {"GET", "/healthz", false}, {"GET", "/metrics", false},
	}
	ep := endpoints[f.pick(len(endpoints))]
	what := []string{}
	method := ep.method
	offRoute := ep.path == "/nowhere"
	if f.chance(0.05) {
		offRoute = true
		method = []string{"PATCH", "FOO", "OPTIONS", "POST", "DELETE", "GET"}[f.pick(6)]
		what = append(what, "method")
	}
	target := ep.path
	if method == "GET" && f.chance(0.7) {
		target += "?" + f.query()
		what = append(what, "query")
	}
	var body []byte
	if method != "GET" && method != "DELETE" && !f.chance(0.05) {
		body = []byte(f.body(ep.batch))
		what = append(what, "body")
	}
	u, err := url.Parse(f.env.URL + target)
	if err != nil {
		u, _ = url.Parse(f.env.URL + ep.path)
	}
	req, err := http.NewRequest(method, u.String(), bytes.NewReader(body))
	if err != nil {
		f.t.Fatalf("build request %s %s: %v", method, u, err)
	}
	if body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	switch {
	case body != nil && f.chance(0.05):
		req.Header.Set("Content-Type", []string{"text/plain", "application/xml", "application/json;;", "multipart/form-data"}[f.pick(4)])
		what = append(what, "content type")
	case body != nil && f.chance(0.05):
		// no content type at all
	case body != nil:
		req.Header.Set("Content-Type", []string{"application/json", "application/json; charset=utf-8"}[f.pick(2)])
	}
	req.SetBasicAuth(apitest.User, apitest.Key)
	if f.chance(0.08) {
		what = append(what, "auth")
		f.xffCounter++
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", f.xffCounter%250+1))
		switch f.pick(7) {
		case 0:
			req.Header.Del("Authorization")
		case 1:
			// No colon, or an empty name.
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte([]string{"admin", ":", ":secret"}[f.pick(3)])))
		case 6:
			// A NUL as the name: it once reached the database as a 500.
			req.Header.Set("Authorization", "Basic ADoA")
		case 2:
			req.Header.Set("Authorization", "Basic !!!not-base64")
		case 3:
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("nobody%d:secret", f.xffCounter))))
		case 4:
			req.Header.Set("Authorization", "Bearer "+strings.Repeat("x", 100))
		default:
			// A wrong key for the real user, but not often enough to lock
			// the user out.
			if f.wrongKeys < 10 {
				f.wrongKeys++
				req.SetBasicAuth(apitest.User, "wrong\x00key")
			}
		}
	}
	hugeHeader := f.chance(0.01)
	if hugeHeader {
		req.Header.Set("X-Padding", strings.Repeat("p", 70<<10))
		what = append(what, "huge header")
	}
	if f.chance(0.05) {
		req.Header.Set("X-Request-Id", "not valid; "+strings.Repeat("r", 100))
	}
	badAuth := len(what) > 0 && slices.Contains(what, "auth")
	return req, strings.Join(what, ", "), !(offRoute && (badAuth || hugeHeader))
}

// checkStockInvariants: 0 <= reserved <= stock on every mapping, and the
// ledger of every mapping sums to its stock.
func checkStockInvariants(t *testing.T, env *apitest.Env) {
	t.Helper()
	ctx := t.Context()
	var broken int
	if err := env.DB.Bun().NewRaw(`SELECT COUNT(*) FROM stock_mappings
WHERE stock < 0 OR reserved_stock < 0 OR reserved_stock > stock OR stock > 2000000000`).Scan(ctx, &broken); err != nil {
		t.Fatal(err)
	}
	if broken != 0 {
		t.Errorf("%d mappings break 0 <= reserved <= stock <= 2000000000", broken)
	}
	var mismatched []struct {
		Bin     int64 `bun:"bin_location_id"`
		Article int64 `bun:"article_detail_id"`
		Stock   int64 `bun:"stock"`
		Sum     int64 `bun:"total"`
	}
	if err := env.DB.Bun().NewRaw(`SELECT m.bin_location_id, m.article_detail_id, m.stock, COALESCE(l.total, 0) AS total
FROM stock_mappings AS m LEFT JOIN (
  SELECT bin_location_id, article_detail_id, SUM(quantity) AS total FROM stock_ledger_entries GROUP BY bin_location_id, article_detail_id
) AS l ON l.bin_location_id = m.bin_location_id AND l.article_detail_id = m.article_detail_id
WHERE m.stock <> COALESCE(l.total, 0)`).Scan(ctx, &mismatched); err != nil {
		t.Fatal(err)
	}
	for _, m := range mismatched {
		t.Errorf("article %d on bin %d: stock %d, ledger sums to %d", m.Article, m.Bin, m.Stock, m.Sum)
	}
	var mappings int
	if err := env.DB.Bun().NewRaw(`SELECT COUNT(*) FROM stock_mappings`).Scan(ctx, &mappings); err != nil {
		t.Fatal(err)
	}
	if mappings == 0 {
		t.Error("no stock mappings at all: the invariants were checked on nothing")
	}
}
