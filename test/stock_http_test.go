package test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The stock endpoints over HTTP: the batch result (success, message, one
// result per operation in request order), the batch rules (a processed
// batch is a 200, a failed operation fails alone, a key replays), mappings
// and the ledger.

// stockTimestamp is the interface's timestamp: always in UTC, so the offset
// is +0000, written without a colon.
var stockTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$`)

// stockBatchJSON is a batch result with every field kept raw, so that
// presence and exact JSON can be checked.
type stockBatchJSON struct {
	Success        bool                         `json:"success"`
	Message        *string                      `json:"message"`
	IdempotencyKey string                       `json:"idempotencyKey"`
	CreatedAt      string                       `json:"createdAt"`
	Results        []map[string]json.RawMessage `json:"results"`
}

// stockPut sends a batch and requires a 200 with a well-formed batch result.
func (e *stockEnv) stockPut(kind, key string, body any) (*apitest.Response, stockBatchJSON) {
	e.t.Helper()
	res := e.Do(e.t, http.MethodPut, "/api/stock/"+kind+"/"+url.PathEscape(key), body)
	if res.Status != http.StatusOK {
		e.t.Fatalf("PUT stock/%s/%s: %s", kind, key, res)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Errorf("Content-Type %q", ct)
	}
	var b stockBatchJSON
	res.Decode(e.t, &b)
	if b.IdempotencyKey != key {
		e.t.Errorf("idempotencyKey %q, want %q", b.IdempotencyKey, key)
	}
	if !stockTimestamp.MatchString(b.CreatedAt) {
		e.t.Errorf("createdAt %q is not in the format 2006-01-02T15:04:05+0000", b.CreatedAt)
	} else if at, err := time.Parse("2006-01-02T15:04:05-0700", b.CreatedAt); err != nil || time.Since(at) > time.Minute || time.Until(at) > time.Minute {
		e.t.Errorf("createdAt %q is not now (%v)", b.CreatedAt, err)
	}
	failed := 0
	for i, r := range b.Results {
		var ok bool
		if err := json.Unmarshal(r["success"], &ok); err != nil {
			e.t.Errorf("result %d: success %s", i, r["success"])
		}
		_, hasMessage := r["message"]
		if ok == hasMessage {
			e.t.Errorf("result %d: success %v with message present %v", i, ok, hasMessage)
		}
		for k := range r {
			if k != "success" && k != "message" && k != "operationId" {
				e.t.Errorf("result %d has an unexpected field %q", i, k)
			}
		}
		if !ok {
			failed++
		}
	}
	switch {
	case b.Success != (failed == 0):
		e.t.Errorf("success %v with %d failed operations", b.Success, failed)
	case failed == 0 && b.Message != nil:
		e.t.Errorf("a successful batch has a message %q", *b.Message)
	case failed > 0 && (b.Message == nil || !strings.Contains(*b.Message, fmt.Sprint(failed))):
		e.t.Errorf("batch message %v does not name how many (%d) failed", b.Message, failed)
	}
	return res, b
}

// stockExpectError requires an error answer with the given status.
func stockExpectError(t *testing.T, res *apitest.Response, status int, mentions ...string) {
	t.Helper()
	if res.Status != status {
		t.Errorf("status %s, want %d", res, status)
		return
	}
	var body struct {
		Success *bool  `json:"success"`
		Message string `json:"message"`
	}
	res.Decode(t, &body)
	if body.Success == nil || *body.Success || body.Message == "" {
		t.Errorf("error body %s", res.Body)
	}
	for _, m := range mentions {
		if !strings.Contains(body.Message, m) {
			t.Errorf("error message %q does not mention %q", body.Message, m)
		}
	}
}

// stockText decodes a JSON string ("" for anything else).
func stockText(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// stockRaw shows raw JSON values as text in failure messages.
func stockRaw(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func stockOps(n int, op string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(op+",", n), ",") + "]"
}

func TestStockHTTPBatchResult(t *testing.T) {
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		p := e.newArticle(1)

		body := fmt.Sprintf(`[
 {"id": 1, "articleDetailId": 1, "quantity": 5, "binLocation": {"id": %[1]d}},
 {"id": "op-2", "articleDetailId": 1, "quantity": 1, "binLocation": {"code": "A-01", "warehouseId": "%[2]d"}},
 {"id": {"a": [1, 2], "b": null}, "articleDetailId": 1, "quantity": 1, "binLocation": {"code": "A-01", "warehouseCode": "WH1"}},
 {"id": null, "articleDetailId": 1, "quantity": 1, "warehouse": {"code": "WH1"}},
 {"articleDetailId": 1, "quantity": 1, "warehouse": {"id": %[2]d, "code": "WH1"}},
 {"id": [1, "x"], "articleDetailId": 999, "quantity": 1, "warehouse": {"id": %[2]d}},
 {"id": 2.5, "articleDetailId": 1, "quantity": 0, "warehouse": {"id": %[2]d}},
 {"id": true, "articleDetailId": 1, "quantity": 1, "warehouse": {"id": %[2]d}, "bogus": 1},
 {"id": false, "articleDetailId": "1", "quantity": 1, "warehouse": {"id": %[2]d}},
 {"articleDetailId": 1, "quantity": -100, "binLocation": {"id": %[1]d}},
 {"id": "x", "articleDetailId": 1, "quantity": 1, "warehouse": {"id": %[2]d}, "binLocation": {"id": %[1]d}},
 {"id": 12, "articleDetailId": 1, "quantity": 1, "warehouse": {"id": %[2]d, "code": "OTHER"}}
]`, a, wh)
		_, b := e.stockPut("change", "result-1", body)
		wantIDs := []string{`1`, `"op-2"`, `{"a":[1,2],"b":null}`, `null`, ``, `[1,"x"]`, `2.5`, `true`, `false`, ``, `"x"`, `12`}
		wantOK := []bool{true, true, true, true, true, false, false, false, false, false, false, false}
		wantMessage := []string{5: "article detail 999 does not exist", 6: "must not be 0", 7: `"bogus"`, 8: "articleDetailId",
			9: "requested 100, available 7", 10: "not both", 11: "name different warehouses"}
		if len(b.Results) != len(wantIDs) {
			t.Fatalf("%d results, want %d", len(b.Results), len(wantIDs))
		}
		for i, r := range b.Results {
			id, has := r["operationId"]
			switch {
			case wantIDs[i] == "" && has:
				t.Errorf("result %d has operationId %s, but its operation had no id", i, id)
			case wantIDs[i] != "" && string(id) != wantIDs[i]:
				t.Errorf("result %d: operationId %s, want %s", i, id, wantIDs[i])
			}
			if got := string(r["success"]) == "true"; got != wantOK[i] {
				t.Errorf("result %d: success %v, want %v (%s)", i, got, wantOK[i], r["message"])
			}
			if !wantOK[i] && !strings.Contains(stockText(r["message"]), wantMessage[i]) {
				t.Errorf("result %d: message %s does not mention %q", i, r["message"], wantMessage[i])
			}
		}
		if b.Success || b.Message == nil || !strings.Contains(*b.Message, "7") {
			t.Errorf("batch success %v message %v, want false and 7 failed", b.Success, b.Message)
		}
		e.expectStock("after the change", p, map[int64]int{a: 7, null: 2})

		// A batch that succeeds has no message.
		res, b := e.stockPut("set", "result-2", fmt.Sprintf(`[{"articleDetailId": 1, "quantity": 3, "binLocation": {"id": %d}}]`, a))
		var top map[string]json.RawMessage
		res.Decode(t, &top)
		if _, has := top["message"]; has || !b.Success {
			t.Errorf("successful batch: %s", res.Body)
		}
		if len(b.Results) != 1 || b.Results[0]["operationId"] != nil {
			t.Errorf("results %v", b.Results)
		}
		_, b = e.stockPut("relocate", "result-3", fmt.Sprintf(
			`[{"id": "r", "articleDetailId": 1, "quantity": "all", "source": {"binLocation": {"id": %d}}, "destination": {"warehouse": {"code": "WH1"}}},
			  {"id": "s", "articleDetailId": 1, "quantity": "some", "source": {"warehouse": {"id": %d}}, "destination": {"binLocation": {"id": %d}}},
			  {"id": "t", "articleDetailId": 1, "quantity": 1, "source": {"warehouse": {"id": %d}}}]`, a, wh, a, wh))
		if len(b.Results) != 3 || string(b.Results[0]["success"]) != "true" ||
			!strings.Contains(stockText(b.Results[1]["message"]), `"all"`) || !strings.Contains(stockText(b.Results[2]["message"]), "destination is required") {
			t.Errorf("relocate results %s", stockRaw(b.Results))
		}
		e.expectStock("after the relocation", p, map[int64]int{a: 0, null: 5})
		e.checkLedger()
	})
}

func TestStockHTTPBatchRejectedAsAWhole(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, _ := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		p := e.newArticle(1)
		good := fmt.Sprintf(`{"articleDetailId": 1, "quantity": 1, "binLocation": {"id": %d}}`, a)

		const key = "rejected-then-retried"
		for _, kind := range []string{"set", "change", "relocate"} {
			for _, tc := range []struct {
				name, body string
				mentions   string
			}{
				{"an object", good, "array"},
				{"an array of numbers", `[1, 2]`, "object"},
				{"an array with a string", "[" + good + `, "x"]`, "object"},
				{"an array with null", `[null]`, "object"},
				{"an empty array", `[]`, "empty"},
				{"1001 operations", stockOps(1001, good), "1001"},
				{"malformed JSON", `[{"articleDetailId": 1,`, "malformed"},
				{"trailing data", "[" + good + "] x", "malformed"},
				{"no body", ``, "empty"},
				{"null", `null`, ""},
			} {
				t.Run(kind+"/"+tc.name, func(t *testing.T) {
					var body any
					if tc.body != "" {
						body = tc.body
					}
					res := e.Do(t, http.MethodPut, "/api/stock/"+kind+"/"+key, body)
					stockExpectError(t, res, http.StatusBadRequest, tc.mentions)
				})
			}
			req, err := http.NewRequest(http.MethodPut, "/api/stock/"+kind+"/"+key, strings.NewReader("["+good+"]"))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "text/plain")
			req.SetBasicAuth(apitest.User, apitest.Key)
			stockExpectError(t, e.DoRaw(t, req), http.StatusUnsupportedMediaType)
			req, _ = http.NewRequest(http.MethodPut, "/api/stock/"+kind+"/"+key, strings.NewReader("["+good+"]"))
			req.Header.Set("Content-Type", "application/json")
			req.SetBasicAuth(apitest.User, "wrong")
			if res := e.DoRaw(t, req); res.Status != http.StatusUnauthorized {
				t.Errorf("wrong key: %s", res)
			}
		}
		huge := "[" + good + strings.Repeat(" ", 9<<20) + "]"
		stockExpectError(t, e.Do(t, http.MethodPut, "/api/stock/change/"+key, huge), http.StatusRequestEntityTooLarge)
		if n := e.ledgerCount(); n != 0 || e.stockOn(p, a) != 0 {
			t.Fatalf("rejected batches executed: %d ledger entries, stock %d", n, e.stockOn(p, a))
		}
		var keys int
		if err := e.DB.Bun().NewRaw("SELECT COUNT(*) FROM idempotency_keys").Scan(e.ctx, &keys); err != nil {
			t.Fatal(err)
		}
		if keys != 0 {
			t.Errorf("rejected batches used up %d keys", keys)
		}

		// The key is still free: a correct retry runs.
		_, b := e.stockPut("change", key, "["+good+"]")
		if !b.Success || e.stockOn(p, a) != 1 {
			t.Errorf("the retry with the key of rejected batches: success %v, stock %d", b.Success, e.stockOn(p, a))
		}

		// Keys are 1 to 255 characters; a longer one is refused and not stored.
		long := strings.Repeat("k", 256)
		stockExpectError(t, e.Do(t, http.MethodPut, "/api/stock/change/"+long, "["+good+"]"), http.StatusBadRequest, "255")
		_, b = e.stockPut("change", long[:255], "["+good+"]")
		if !b.Success || e.stockOn(p, a) != 2 {
			t.Errorf("a 255-character key: success %v, stock %d", b.Success, e.stockOn(p, a))
		}

		// 1000 operations are allowed.
		_, b = e.stockPut("change", "thousand", stockOps(1000, good))
		if !b.Success || len(b.Results) != 1000 {
			t.Errorf("1000 operations: success %v, %d results", b.Success, len(b.Results))
		}
		if got := e.stockOn(p, a); got != 1002 {
			t.Errorf("stock after 1000 operations %d, want 1002", got)
		}
		if n := e.ledgerCount(); n != 1002 {
			t.Errorf("%d ledger entries, want 1002", n)
		}
		e.checkLedger()
	})
}

func TestStockHTTPReplay(t *testing.T) {
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, _ := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		p := e.newArticle(1)
		body := fmt.Sprintf(`[{"id": "x", "articleDetailId": 1, "quantity": 5, "binLocation": {"id": %d}}]`, a)
		// The same batch written differently: other key order and spacing.
		same := fmt.Sprintf("[ {\"binLocation\":{\"id\":%d},\n\"quantity\":5,\"articleDetailId\":1,\"id\":\"x\"} ]", a)

		first, _ := e.stockPut("change", "replay-1", body)
		if h := first.Header.Get("Idempotent-Replayed"); h != "" {
			t.Errorf("the first answer says Idempotent-Replayed: %q", h)
		}
		time.Sleep(1100 * time.Millisecond) // a rerun would render another createdAt
		for _, b := range []string{body, same} {
			again, _ := e.stockPut("change", "replay-1", b)
			if !bytes.Equal(again.Body, first.Body) {
				t.Errorf("replay differs:\n%s\n%s", first.Body, again.Body)
			}
			if h := again.Header.Get("Idempotent-Replayed"); h != "true" {
				t.Errorf("replay header %q", h)
			}
		}
		if got, n := e.stockOn(p, a), e.ledgerCount(); got != 5 || n != 1 {
			t.Errorf("after replays: stock %d, %d ledger entries; want 5 and 1", got, n)
		}

		// The key belongs to that batch: another body or endpoint is a 409.
		other := fmt.Sprintf(`[{"id": "x", "articleDetailId": 1, "quantity": 6, "binLocation": {"id": %d}}]`, a)
		stockExpectError(t, e.Do(t, http.MethodPut, "/api/stock/change/replay-1", other), http.StatusConflict, "replay-1")
		stockExpectError(t, e.Do(t, http.MethodPut, "/api/stock/set/replay-1", body), http.StatusConflict)
		stockExpectError(t, e.Do(t, http.MethodPut, "/api/stock/relocate/replay-1",
			fmt.Sprintf(`[{"articleDetailId": 1, "quantity": 1, "source": {"binLocation": {"id": %d}}, "destination": {"warehouse": {"id": %d}}}]`, a, wh)),
			http.StatusConflict)
		if got, n := e.stockOn(p, a), e.ledgerCount(); got != 5 || n != 1 {
			t.Errorf("after conflicts: stock %d, %d ledger entries; want 5 and 1", got, n)
		}

		// A failed batch replays as failed, even once the cause is fixed.
		short := fmt.Sprintf(`[{"articleDetailId": 1, "quantity": -8, "binLocation": {"id": %d}}]`, a)
		failed, b := e.stockPut("change", "replay-2", short)
		if b.Success {
			t.Fatalf("taking 8 of 5 succeeded")
		}
		e.stockPut("change", "replay-3", body)
		again, b := e.stockPut("change", "replay-2", short)
		if b.Success || !bytes.Equal(again.Body, failed.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("the failed batch did not replay as it was: %s", again.Body)
		}
		if got := e.stockOn(p, a); got != 10 {
			t.Errorf("stock %d, want 10", got)
		}
		e.checkLedger()
	})
}

func TestStockHTTPRacingDuplicates(t *testing.T) {
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		p := e.newArticle(1)
		body := fmt.Sprintf(`[{"id": 1, "articleDetailId": 1, "quantity": 1, "binLocation": {"id": %d}},
			{"id": 2, "articleDetailId": 1, "quantity": 2, "warehouse": {"id": %d}}]`, a, wh)

		const n = 8
		responses := make([]*apitest.Response, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				responses[i] = e.Do(t, http.MethodPut, "/api/stock/change/race-1", body)
			}()
		}
		close(start)
		wg.Wait()
		fresh := 0
		for i, r := range responses {
			if r == nil {
				t.Fatalf("request %d got no answer", i)
			}
			if r.Status != http.StatusOK {
				t.Errorf("request %d: %s", i, r)
				continue
			}
			if !bytes.Equal(r.Body, responses[0].Body) {
				t.Errorf("request %d answered differently:\n%s\n%s", i, r.Body, responses[0].Body)
			}
			if r.Header.Get("Idempotent-Replayed") != "true" {
				fresh++
			}
		}
		if fresh != 1 {
			t.Errorf("%d of %d racing requests ran the batch, want 1", fresh, n)
		}
		e.expectStock("after the race", p, map[int64]int{a: 1, null: 2})
		if got := e.ledgerCount(); got != 2 {
			t.Errorf("%d ledger entries, want 2", got)
		}

		// Racing different bodies under one key: one runs, the others conflict.
		statuses := make([]int, n)
		start = make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				r := e.Do(t, http.MethodPut, "/api/stock/change/race-2",
					fmt.Sprintf(`[{"articleDetailId": 1, "quantity": %d, "binLocation": {"id": %d}}]`, 10+i, a))
				statuses[i] = r.Status
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, s := range statuses {
			switch {
			case s == http.StatusOK && winner < 0:
				winner = i
			case s == http.StatusOK:
				t.Errorf("two different bodies under one key ran: %d and %d", winner, i)
			case s != http.StatusConflict:
				t.Errorf("request %d: status %d, want 409", i, s)
			}
		}
		if winner >= 0 {
			if got := e.stockOn(p, a); got != 1+10+winner {
				t.Errorf("stock %d, want %d", got, 1+10+winner)
			}
		} else {
			t.Errorf("no request ran: %v", statuses)
		}
		e.checkLedger()
	})
}

func TestStockHTTPBinLocationMappings(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, _ := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		e.newArticle(1)
		e.newArticle(2)
		e.stockPut("set", "m-1", fmt.Sprintf(`[{"articleDetailId": 1, "quantity": 4, "binLocation": {"id": %d}}]`, a))
		e.stockPut("change", "m-2", fmt.Sprintf(`[{"articleDetailId": 2, "quantity": 3, "binLocation": {"id": %d}}]`, a))
		if res := e.Do(t, http.MethodPut, fmt.Sprintf("/api/binLocations/%d/articleDetails/2", a), `{"defaultMapping": true}`); res.Status != http.StatusOK {
			t.Fatalf("set default: %s", res)
		}

		var ids []struct {
			ID      int64 `bun:"id"`
			Article int64 `bun:"article_detail_id"`
		}
		if err := e.DB.Bun().NewRaw("SELECT id, article_detail_id FROM stock_mappings WHERE bin_location_id = ? ORDER BY id", a).Scan(e.ctx, &ids); err != nil {
			t.Fatal(err)
		}
		res := e.Do(t, http.MethodGet, fmt.Sprintf("/api/binLocations/%d", a), nil)
		if res.Status != http.StatusOK {
			t.Fatalf("get bin location: %s", res)
		}
		var body struct {
			Success bool `json:"success"`
			Data    struct {
				ID          int64                        `json:"id"`
				WarehouseID int64                        `json:"warehouseId"`
				Code        string                       `json:"code"`
				Mappings    []map[string]json.RawMessage `json:"articleDetailBinLocationMappings"`
			} `json:"data"`
		}
		res.Decode(t, &body)
		if !body.Success || body.Data.ID != a || body.Data.WarehouseID != wh || body.Data.Code != "A-01" || len(body.Data.Mappings) != 2 || len(ids) != 2 {
			t.Fatalf("bin location %s (mappings in the database: %v)", res.Body, ids)
		}
		fields := []string{"articleDetailId", "binLocationId", "defaultMapping", "id", "lastStockTake", "lots", "reservedStock", "stock"}
		want := []map[string]string{
			{"id": fmt.Sprint(ids[0].ID), "binLocationId": fmt.Sprint(a), "articleDetailId": "1", "stock": "4", "defaultMapping": "false", "reservedStock": "0", "lots": "[]"},
			{"id": fmt.Sprint(ids[1].ID), "binLocationId": fmt.Sprint(a), "articleDetailId": "2", "stock": "3", "defaultMapping": "true", "reservedStock": "0", "lastStockTake": "null", "lots": "[]"},
		}
		for i, m := range body.Data.Mappings {
			got := slices.Sorted(func(yield func(string) bool) {
				for k := range m {
					if !yield(k) {
						return
					}
				}
			})
			if !slices.Equal(got, fields) {
				t.Errorf("mapping %d has the fields %v, want %v", i, got, fields)
			}
			for k, v := range want[i] {
				if string(m[k]) != v {
					t.Errorf("mapping %d: %s = %s, want %s", i, k, m[k], v)
				}
			}
		}
		var stamp string
		if err := json.Unmarshal(body.Data.Mappings[0]["lastStockTake"], &stamp); err != nil || !stockTimestamp.MatchString(stamp) {
			t.Errorf("lastStockTake after a set: %s", body.Data.Mappings[0]["lastStockTake"])
		}

		// The list shows no mappings.
		res = e.Do(t, http.MethodGet, "/api/binLocations", nil)
		if res.Status != http.StatusOK || bytes.Contains(res.Body, []byte("articleDetailBinLocationMappings")) {
			t.Errorf("bin location list: %s", res)
		}
	})
}

func TestStockHTTPDefaultMapping(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		wh2, _ := e.newWarehouse("WH2", true)
		a := e.newBin(wh, "A-01")
		b := e.newBin(wh, "B-01")
		p := e.newArticle(1)
		put := func(bin, article int64, body string) *apitest.Response {
			return e.Do(t, http.MethodPut, fmt.Sprintf("/api/binLocations/%d/articleDetails/%d", bin, article), body)
		}
		isDefault := func(bin int64) bool {
			m := e.mapping(p, bin)
			return m != nil && m.DefaultMapping
		}

		if res := put(a, p, `{"defaultMapping": true}`); res.Status != http.StatusOK || string(res.Body) != `{"success":true}` {
			t.Fatalf("set default: %s", res)
		}
		if !isDefault(a) {
			t.Errorf("a is not the default")
		}
		stockExpectError(t, put(999999, p, `{"defaultMapping": true}`), http.StatusNotFound)
		stockExpectError(t, put(a, 999, `{"defaultMapping": true}`), http.StatusNotFound)
		stockExpectError(t, put(null, p, `{"defaultMapping": true}`), http.StatusBadRequest)
		stockExpectError(t, put(a, p, `{}`), http.StatusBadRequest)
		stockExpectError(t, put(a, p, `{"defaultMapping": true, "stock": 3}`), http.StatusBadRequest, "stock")

		// Moving the default: stock in follows it, the old one keeps its stock.
		e.stockPut("change", "d-1", fmt.Sprintf(`[{"articleDetailId": 1, "quantity": 2, "warehouse": {"id": %d}}]`, wh))
		if res := put(b, p, `{"defaultMapping": true}`); res.Status != http.StatusOK {
			t.Fatalf("move default: %s", res)
		}
		if isDefault(a) || !isDefault(b) || e.stockOn(p, a) != 2 {
			t.Errorf("after moving the default: a default %v (stock %d), b default %v", isDefault(a), e.stockOn(p, a), isDefault(b))
		}
		e.stockPut("change", "d-2", `[{"articleDetailId": 1, "quantity": 3, "warehouse": {"code": "WH1"}}]`)
		e.expectStock("stock in after the move", p, map[int64]int{a: 2, b: 3, null: 0})

		// Delete rules over HTTP.
		stockExpectError(t, e.Do(t, http.MethodDelete, fmt.Sprintf("/api/binLocations/%d", a), nil), http.StatusBadRequest)
		if res := put(b, p, `{"defaultMapping": false}`); res.Status != http.StatusOK {
			t.Fatalf("clear default: %s", res)
		}
		if isDefault(b) || e.stockOn(p, b) != 3 {
			t.Errorf("clearing the default must keep the stock")
		}
		e.stockPut("relocate", "d-3", fmt.Sprintf(`[{"articleDetailId": 1, "quantity": "all", "source": {"binLocation": {"id": %d}}, "destination": {"warehouse": {"id": %d}}}]`, b, wh2))
		if res := put(b, p, `{"defaultMapping": true}`); res.Status != http.StatusOK {
			t.Fatalf("set default again: %s", res)
		}
		stockExpectError(t, e.Do(t, http.MethodDelete, fmt.Sprintf("/api/binLocations/%d", b), nil), http.StatusBadRequest)
		stockExpectError(t, e.Do(t, http.MethodDelete, fmt.Sprintf("/api/warehouses/%d", wh2), nil), http.StatusBadRequest)
		stockExpectError(t, e.Do(t, http.MethodDelete, fmt.Sprintf("/api/articleDetails/%d", p), nil), http.StatusBadRequest)
		e.checkLedger()
	})
}

func TestStockHTTPLedger(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		e.newArticle(1)
		e.newArticle(2)
		e.stockPut("change", "ledger-1", fmt.Sprintf(`[{"id": {"n": 1}, "articleDetailId": 1, "quantity": 5, "binLocation": {"id": %d}},
			{"id": "b", "articleDetailId": 2, "quantity": 3, "warehouse": {"id": %d}}]`, a, wh))
		e.stockPut("relocate", "ledger-2", fmt.Sprintf(`[{"articleDetailId": 1, "quantity": 2, "source": {"binLocation": {"id": %d}}, "destination": {"warehouse": {"id": %d}}}]`, a, wh))
		e.stockPut("set", "ledger-3", fmt.Sprintf(`[{"articleDetailId": 1, "quantity": 10, "binLocation": {"id": %d}}]`, a))

		type entry = map[string]json.RawMessage
		list := func(filters ...[2]string) []entry {
			t.Helper()
			q := url.Values{}
			for i, f := range filters {
				q.Set(fmt.Sprintf("filter[%d][property]", i), "stockLedgerEntry."+f[0])
				q.Set(fmt.Sprintf("filter[%d][value]", i), f[1])
			}
			res := e.Do(t, http.MethodGet, "/api/stockLedgerEntries?"+q.Encode(), nil)
			var body struct {
				Success bool    `json:"success"`
				Total   int     `json:"total"`
				Data    []entry `json:"data"`
			}
			if res.Status != http.StatusOK {
				t.Fatalf("list ledger: %s", res)
			}
			res.Decode(t, &body)
			if !body.Success || body.Total != len(body.Data) {
				t.Errorf("ledger list: success %v, total %d, %d entries", body.Success, body.Total, len(body.Data))
			}
			return body.Data
		}
		summary := func(es []entry) string {
			var parts []string
			for _, x := range es {
				parts = append(parts, fmt.Sprintf("%s/%s/%s:%s=%s", x["articleDetailId"], x["binLocationId"], x["type"], x["quantity"], x["stockAfter"]))
			}
			return strings.Join(parts, " ")
		}

		if got, want := summary(list()), fmt.Sprintf(`1/%[1]d/"incoming":5=5 2/%[2]d/"incoming":3=3 1/%[1]d/"relocation":-2=3 1/%[2]d/"relocation":2=2 1/%[1]d/"stocktake":7=10`, a, null); got != want {
			t.Errorf("ledger\n got %s\nwant %s", got, want)
		}
		if got, want := summary(list([2]string{"articleDetailId", "2"})), fmt.Sprintf(`2/%d/"incoming":3=3`, null); got != want {
			t.Errorf("by article: %s, want %s", got, want)
		}
		if got := list([2]string{"type", "relocation"}); len(got) != 2 {
			t.Errorf("by type: %s", summary(got))
		}
		if got := list([2]string{"articleDetailId", "1"}, [2]string{"type", "stocktake"}); summary(got) != fmt.Sprintf(`1/%d/"stocktake":7=10`, a) {
			t.Errorf("by article and type: %s", summary(got))
		}
		byKey := list([2]string{"idempotencyKey", "ledger-1"})
		if len(byKey) != 2 {
			t.Fatalf("by key: %s", summary(byKey))
		}
		fields := []string{"articleDetailId", "binLocationId", "countId", "createdAt", "id", "idempotencyKey", "lotNumber", "operationId", "orderDetailId",
			"orderId", "purchaseOrderId", "quantity", "stockAfter", "transferId", "type", "user", "warehouseId"}
		got := slices.Sorted(func(yield func(string) bool) {
			for k := range byKey[0] {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(got, fields) {
			t.Errorf("entry fields %v, want %v", got, fields)
		}
		want := map[string]string{
			"articleDetailId": "1", "warehouseId": fmt.Sprint(wh), "binLocationId": fmt.Sprint(a), "type": `"incoming"`,
			"quantity": "5", "stockAfter": "5", "idempotencyKey": `"ledger-1"`, "operationId": `{"n":1}`,
			"orderId": "null", "orderDetailId": "null", "purchaseOrderId": "null", "user": `"admin"`, "lotNumber": "null", "transferId": "null",
		}
		for k, v := range want {
			if string(byKey[0][k]) != v {
				t.Errorf("entry %s = %s, want %s", k, byKey[0][k], v)
			}
		}
		if string(byKey[1]["operationId"]) != `"b"` {
			t.Errorf("second entry operationId %s", byKey[1]["operationId"])
		}
		var id int64
		var created string
		if json.Unmarshal(byKey[0]["id"], &id) != nil || id <= 0 || json.Unmarshal(byKey[0]["createdAt"], &created) != nil || !stockTimestamp.MatchString(created) {
			t.Errorf("entry id %s, createdAt %s", byKey[0]["id"], byKey[0]["createdAt"])
		}
		if got := list([2]string{"idempotencyKey", "ledger-2"}); len(got) != 2 || string(got[0]["operationId"]) != "null" {
			t.Errorf("an operation without id: %s", stockRaw(got))
		}
		stockExpectError(t, e.Do(t, http.MethodGet, "/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.nope&filter[0][value]=1", nil), http.StatusBadRequest)
	})
}
