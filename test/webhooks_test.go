package test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	webhookadapter "github.com/shopstock/inventory/adapters/webhook"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Webhooks: subscriptions over HTTP, and deliveries to a real receiver in
// this process that checks every signature with the Standard Webhooks
// reference library, not with our own code.

// receipt is one request the receiver got.
type receipt struct {
	ID       string
	Verified bool // the signature checks out with the receiver's secret
	Type     string
	Body     map[string]any
}

type receiver struct {
	t      testing.TB
	srv    *httptest.Server
	mu     sync.Mutex
	secret string
	fail   int // answer 500 to this many more requests (-1: always)
	got    []receipt
}

func startReceiver(t testing.TB) *receiver {
	r := &receiver{t: t}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	rc := receipt{ID: req.Header.Get("webhook-id")}
	if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
		r.t.Errorf("receiver: %s with Content-Type %q", req.Method, req.Header.Get("Content-Type"))
	}
	if wh, err := standardwebhooks.NewWebhook(r.secret); err == nil {
		rc.Verified = wh.Verify(body, req.Header) == nil
	}
	if err := json.Unmarshal(body, &rc.Body); err != nil {
		r.t.Errorf("receiver: body is not JSON: %s", body)
	}
	rc.Type, _ = rc.Body["type"].(string)
	r.got = append(r.got, rc)
	if r.fail != 0 {
		if r.fail > 0 {
			r.fail--
		}
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (r *receiver) set(secret string, fail int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secret, r.fail = secret, fail
}

// take returns and forgets what arrived.
func (r *receiver) take() []receipt {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.got
	r.got = nil
	return got
}

func ids(rs []receipt) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
		if !r.Verified {
			out[i] += "(unverified)"
		}
	}
	return out
}

// whCreate subscribes url and returns the id and the secret.
func whCreate(t testing.TB, env *apitest.Env, body map[string]any) (int64, string) {
	t.Helper()
	res := env.Do(t, http.MethodPost, "/api/webhooks", body)
	if res.Status != http.StatusCreated {
		t.Fatalf("create webhook: %s", res)
	}
	data := res.JSON(t)["data"].(map[string]any)
	id := ohInt(t, data["id"])
	if res.Header.Get("Location") != data["location"] || data["location"] != env.URL+"/api/webhooks/"+strconv.FormatInt(id, 10) {
		t.Errorf("location %v, header %q", data["location"], res.Header.Get("Location"))
	}
	return id, data["secret"].(string)
}

// whDispatcher drives deliveries step by step, with a quick schedule.
func whDispatcher(env *apitest.Env, allowPrivate bool) *application.WebhookDispatcher {
	d := env.App.WebhookDispatcher(webhookadapter.NewSender(allowPrivate))
	d.Schedule = application.RetrySchedule{Delays: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, Repeat: 200 * time.Millisecond, GiveUpAfter: time.Hour}
	return d
}

func whDispatch(t testing.TB, d *application.WebhookDispatcher) application.DispatchReport {
	t.Helper()
	r, err := d.DispatchOnce(apitest.Admin())
	if err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	return r
}

func whDeliveries(t testing.TB, env *apitest.Env, id int64) []map[string]any {
	t.Helper()
	body := ohOK(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/webhooks/%d/deliveries", id), nil))
	var out []map[string]any
	for _, d := range body["data"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}

var secretFormat = regexp.MustCompile(`^whsec_[A-Za-z0-9+/]{43}=$`)

func TestWebhookSubscriptions(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		id, secret := whCreate(t, env, map[string]any{"url": "https://shop.example/hooks", "events": []string{"stock.low", "stock.changed"}})
		if !secretFormat.MatchString(secret) {
			t.Errorf("secret %q", secret)
		}
		got := ohOK(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/webhooks/%d", id), nil))["data"].(map[string]any)
		if got["url"] != "https://shop.example/hooks" || fmt.Sprint(got["events"]) != "[stock.changed stock.low]" ||
			got["description"] != "" || got["enabled"] != true || !stockTimestamp.MatchString(got["createdAt"].(string)) {
			t.Errorf("webhook = %v", got)
		}
		if _, ok := got["secret"]; ok {
			t.Errorf("the secret is shown again")
		}
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/webhooks/%d", id), map[string]any{"description": "stock", "enabled": false}))
		list := ohOK(t, env.Do(t, http.MethodGet, "/api/webhooks?filter[0][property]=webhook.enabled&filter[0][value]=false", nil))
		if list["total"] != float64(1) {
			t.Fatalf("list = %v", list)
		}
		item := list["data"].([]any)[0].(map[string]any)
		if item["description"] != "stock" || item["url"] != "https://shop.example/hooks" || item["enabled"] != false {
			t.Errorf("what is not sent stays: %v", item)
		}
		rotated := ohOK(t, env.Do(t, http.MethodPost, fmt.Sprintf("/api/webhooks/%d/rotateSecret", id), nil))["data"].(map[string]any)["secret"].(string)
		if !secretFormat.MatchString(rotated) || rotated == secret {
			t.Errorf("rotated secret %q", rotated)
		}

		for _, tc := range []struct {
			body    any
			mention string
		}{
			{map[string]any{"events": []string{"stock.low"}}, "url"},
			{map[string]any{"url": "https://x.example"}, "events"},
			{map[string]any{"url": "ftp://x.example", "events": []string{"stock.low"}}, "url"},
			{map[string]any{"url": "/relative", "events": []string{"stock.low"}}, "url"},
			{map[string]any{"url": "https://x.example/" + strings.Repeat("a", 2048), "events": []string{"stock.low"}}, "url"},
			{map[string]any{"url": "https://x.example", "events": []string{}}, "events"},
			{map[string]any{"url": "https://x.example", "events": []string{"stock.gone"}}, "stock.gone"},
			{map[string]any{"url": "https://x.example", "events": []string{"stock.low"}, "secret": "whsec_x"}, "secret"},
			{map[string]any{"url": "https://x.example", "events": "stock.low"}, "events"},
		} {
			ohError(t, env.Do(t, http.MethodPost, "/api/webhooks", tc.body), http.StatusBadRequest, tc.mention)
		}
		ohError(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/webhooks/%d", id), map[string]any{"events": []string{}}), http.StatusBadRequest, "events")
		for _, path := range []string{"/api/webhooks/999", "/api/webhooks/999/deliveries", "/api/webhooks/x"} {
			ohError(t, env.Do(t, http.MethodGet, path, nil), http.StatusNotFound)
		}
		ohError(t, env.Do(t, http.MethodPost, "/api/webhooks/999/rotateSecret", nil), http.StatusNotFound)
		ohOK(t, env.Do(t, http.MethodDelete, fmt.Sprintf("/api/webhooks/%d", id), nil))
		ohError(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/webhooks/%d", id), nil), http.StatusNotFound)
		ohError(t, env.Do(t, http.MethodDelete, fmt.Sprintf("/api/webhooks/%d", id), nil), http.StatusNotFound)
	})
}

func TestWebhookDeliveries(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		rc := startReceiver(t)
		f.put(t, f.art1, ohWarehouse(f.main), 1) // before the webhook: never sent
		id, secret := whCreate(t, env, map[string]any{"url": rc.srv.URL + "/in", "events": []string{"stock.changed", "order.statusChanged"}})
		rc.set(secret, 0)
		d := whDispatcher(env, true)

		// Delivered, signed, in the documented shape.
		f.put(t, f.art1, ohWarehouse(f.main), 2)
		events, _ := evFeed(t, env, "type=stock.changed&limit=1000")
		last := events[len(events)-1]
		if r := whDispatch(t, d); r.Sent != 1 {
			t.Fatalf("report %+v, want 1 sent", r)
		}
		got := rc.take()
		if len(got) != 1 || !got[0].Verified || got[0].ID != strconv.FormatInt(last.ID, 10) || got[0].Type != "stock.changed" {
			t.Fatalf("received %v, want event %d verified", ids(got), last.ID)
		}
		if ts, err := time.Parse(time.RFC3339, got[0].Body["timestamp"].(string)); err != nil || time.Since(ts) > time.Minute {
			t.Errorf("timestamp %v: %v", got[0].Body["timestamp"], err)
		}
		if data := got[0].Body["data"].(map[string]any); data["physicalStock"] != float64(3) || data["id"] != float64(f.art1) {
			t.Errorf("data = %v", data)
		}
		dl := whDeliveries(t, env, id)
		if len(dl) != 1 || dl[0]["status"] != "delivered" || dl[0]["attempts"] != float64(1) || dl[0]["lastStatusCode"] != float64(204) ||
			dl[0]["lastError"] != nil || dl[0]["nextAttemptAt"] != nil || dl[0]["deliveredAt"] == nil || dl[0]["eventId"] != float64(last.ID) {
			t.Errorf("delivery log = %v", dl)
		}
		if r := whDispatch(t, d); r.Done() != 0 || len(rc.take()) != 0 {
			t.Fatalf("a delivered event went out again: %+v", r)
		}

		// The receiver fails, then recovers; the later event waits its turn.
		rc.set(secret, 2)
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		f.put(t, f.art2, ohWarehouse(f.main), 1)
		if r := whDispatch(t, d); r.Retrying != 1 || r.Sent != 0 {
			t.Fatalf("first attempt: %+v", r)
		}
		dl = whDeliveries(t, env, id)
		if len(dl) != 3 || dl[1]["status"] != "pending" || dl[1]["lastStatusCode"] != float64(500) || dl[1]["nextAttemptAt"] == nil ||
			dl[1]["lastError"] != "the receiver answered HTTP 500" || dl[2]["attempts"] != float64(0) {
			t.Errorf("delivery log after a failure = %v", dl)
		}
		if r := whDispatch(t, d); r.Done() != 0 {
			t.Fatalf("nothing is due before the retry, and the later event waits: %+v", r)
		}
		pending := ohOK(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/webhooks/%d/deliveries?filter[0][property]=delivery.status&filter[0][value]=pending&sort[0][property]=delivery.eventId&sort[0][direction]=DESC", id), nil))
		if pending["total"] != float64(2) || pending["data"].([]any)[0].(map[string]any)["attempts"] != float64(0) {
			t.Errorf("pending deliveries, latest first: %v", pending)
		}
		ohError(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/webhooks/%d/deliveries?filter[0][property]=delivery.url", id), nil), http.StatusBadRequest, "delivery.status")
		if st, err := env.App.WebhookQueueStats(apitest.Admin()); err != nil || st.Pending != 2 || st.OldestAge <= 0 || st.OldestAge > time.Minute {
			t.Errorf("queue stats %+v %v, want 2 pending", st, err)
		}
		var order []string
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(whPending(t, env, id)) > 0; {
			time.Sleep(50 * time.Millisecond)
			whDispatch(t, d)
		}
		for _, r := range rc.take() {
			order = append(order, r.ID)
			if !r.Verified {
				t.Errorf("unverified delivery %s", r.ID)
			}
		}
		events, _ = evFeed(t, env, "type=stock.changed&limit=1000")
		a, b := strconv.FormatInt(events[len(events)-2].ID, 10), strconv.FormatInt(events[len(events)-1].ID, 10)
		if fmt.Sprint(order) != fmt.Sprint([]string{a, a, a, b}) {
			t.Errorf("attempts in order %v, want %s three times (two failures), then %s", order, a, b)
		}

		// A rotated secret signs at once; the old one no longer verifies.
		rotated := ohOK(t, env.Do(t, http.MethodPost, fmt.Sprintf("/api/webhooks/%d/rotateSecret", id), map[string]any{}))["data"].(map[string]any)["secret"].(string)
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		whDispatch(t, d)
		if got := rc.take(); len(got) != 1 || got[0].Verified {
			t.Errorf("after rotation the old secret still verifies: %v", ids(got))
		}
		rc.set(rotated, 0)
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		whDispatch(t, d)
		if got := rc.take(); len(got) != 1 || !got[0].Verified {
			t.Errorf("the new secret does not verify: %v", ids(got))
		}

		// Events of a disabled time are never sent.
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/webhooks/%d", id), map[string]any{"enabled": false}))
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		whDispatch(t, d)
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/webhooks/%d", id), map[string]any{"enabled": true}))
		whDispatch(t, d)
		if got := rc.take(); len(got) != 0 {
			t.Errorf("an event of the disabled time was sent: %v", ids(got))
		}
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		whDispatch(t, d)
		if got := rc.take(); len(got) != 1 || !got[0].Verified {
			t.Errorf("enabled again, the next event arrives: %v", ids(got))
		}

		// Only the subscribed types: an order status change, but no stock.low.
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", f.art2), map[string]any{"reorderPoint": 100}))
		orderID, _ := f.newOrder(t, map[string]any{"number": "WH-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/orders/%d/ship", orderID), map[string]any{"suppressStatusMail": true}))
		for range 3 {
			whDispatch(t, d)
		}
		var types []string
		for _, r := range rc.take() {
			types = append(types, r.Type)
		}
		if fmt.Sprint(types) != "[stock.changed stock.changed order.statusChanged]" {
			t.Errorf("received %v", types)
		}

		// A deleted webhook gets nothing more, not even its pending retries.
		rc.set(rotated, -1)
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		whDispatch(t, d)
		rc.take()
		ohOK(t, env.Do(t, http.MethodDelete, fmt.Sprintf("/api/webhooks/%d", id), nil))
		time.Sleep(150 * time.Millisecond)
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		if r := whDispatch(t, d); r.Done() != 0 || len(rc.take()) != 0 {
			t.Errorf("a deleted webhook was called: %+v", r)
		}
	})
}

func whPending(t testing.TB, env *apitest.Env, id int64) []map[string]any {
	var out []map[string]any
	for _, d := range whDeliveries(t, env, id) {
		if d["status"] == "pending" {
			out = append(out, d)
		}
	}
	return out
}

func TestWebhookDeliveryIsGivenUpAndTheNextEventGoesOn(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		rc := startReceiver(t)
		id, secret := whCreate(t, f.env, map[string]any{"url": rc.srv.URL, "events": []string{"stock.changed"}})
		rc.set(secret, -1)
		d := whDispatcher(f.env, true)
		d.Schedule = application.RetrySchedule{Delays: []time.Duration{50 * time.Millisecond}, Repeat: 100 * time.Millisecond, GiveUpAfter: 300 * time.Millisecond}
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		var gaveUp int
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && gaveUp == 0; time.Sleep(20 * time.Millisecond) {
			gaveUp += whDispatch(t, d).GivenUp
		}
		dl := whDeliveries(t, f.env, id)
		if gaveUp != 1 || dl[0]["status"] != "failed" || dl[0]["nextAttemptAt"] != nil || dl[1]["status"] != "pending" {
			t.Fatalf("given up %d; log %v", gaveUp, dl)
		}
		attempts := int(dl[0]["attempts"].(float64))
		if attempts < 3 || attempts > 5 {
			t.Errorf("%d attempts within 300 ms at 0, 50 ms, then every 100 ms", attempts)
		}
		rc.set(secret, 0)
		rc.take()
		whDispatch(t, d)
		if got := rc.take(); len(got) != 1 || got[0].ID != strconv.FormatInt(int64(dl[1]["eventId"].(float64)), 10) {
			t.Errorf("after giving up the next event goes out: %v", ids(got))
		}
	})
}

func TestWebhookRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		rc := startReceiver(t)
		port := rc.srv.URL[len("http://127.0.0.1:"):]
		var hooks []int64
		for _, u := range []string{rc.srv.URL, "http://localhost:" + port + "/x"} {
			id, secret := whCreate(t, f.env, map[string]any{"url": u, "events": []string{"stock.changed"}})
			rc.set(secret, 0)
			hooks = append(hooks, id)
		}
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		d := f.env.App.WebhookDispatcher(webhookadapter.NewSender(false))
		if r := whDispatch(t, d); r.Retrying != 2 {
			t.Fatalf("report %+v, want both attempts failed", r)
		}
		if got := rc.take(); len(got) != 0 {
			t.Fatalf("a loopback receiver was called: %v", ids(got))
		}
		for _, id := range hooks {
			dl := whDeliveries(t, f.env, id)
			if dl[0]["lastError"] != "address not allowed" || dl[0]["lastStatusCode"] != nil || dl[0]["status"] != "pending" {
				t.Errorf("delivery = %v", dl[0])
			}
		}
	})
}

func TestWebhookRetryScheduleIsTheContract(t *testing.T) {
	s := application.WebhookRetrySchedule
	var at []time.Duration // when each attempt is made, after the first
	now := time.Duration(0)
	for failed := 1; ; failed++ {
		at = append(at, now)
		wait := s.Next(failed, now)
		if wait == 0 {
			break
		}
		now += wait
	}
	want := []time.Duration{0, 5 * time.Second, 35 * time.Second, 155 * time.Second, 755 * time.Second, time.Hour + 755*time.Second}
	for i, w := range want {
		if at[i] != w {
			t.Fatalf("attempt %d at %v, want %v (all: %v)", i+1, at[i], w, at)
		}
	}
	for i := len(want); i < len(at); i++ {
		if at[i]-at[i-1] != time.Hour {
			t.Errorf("attempt %d is %v after the one before, want hourly", i+1, at[i]-at[i-1])
		}
	}
	if lastAt := at[len(at)-1]; lastAt > 24*time.Hour || lastAt+time.Hour <= 24*time.Hour {
		t.Errorf("the last attempt is at %v: want the last hourly one within 24 h", lastAt)
	}
}

// With several instances, each attempt is made by one of them, and the
// first attempt follows the commit within 5 s when dispatchers run every second.
func TestWebhookDispatchersOnSeveralInstancesMakeEachAttemptOnce(t *testing.T) {
	t.Parallel()
	databaseURL := testdb.Postgres(t)
	f := ohSetup(t, databaseURL)
	second := apitest.New(t, databaseURL)
	rc := startReceiver(t)
	_, secret := whCreate(t, f.env, map[string]any{"url": rc.srv.URL, "events": []string{"stock.changed"}})
	rc.set(secret, 0)
	ctx, cancel := context.WithCancel(apitest.Admin())
	var wg sync.WaitGroup
	for _, env := range []*apitest.Env{f.env, second, f.env, second} {
		d := whDispatcher(env, true)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				// As bootstrap runs it: rounds until nothing is due, every second.
				for ctx.Err() == nil {
					r, err := d.DispatchOnce(ctx)
					if err != nil && ctx.Err() == nil {
						t.Errorf("dispatch: %v", err)
					}
					if r.Done() == 0 {
						break
					}
				}
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
		}()
	}
	const changes = 20
	committedAt := map[string]time.Time{}
	for i := range changes {
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		events, _ := evFeed(t, f.env, "type=stock.changed&limit=1000")
		committedAt[strconv.FormatInt(events[len(events)-1].ID, 10)] = time.Now()
		if i%5 == 0 {
			time.Sleep(300 * time.Millisecond)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	seen := map[string]int{}
	var arrivals []string
	for time.Now().Before(deadline) && len(seen) < changes {
		for _, r := range rc.take() {
			seen[r.ID]++
			arrivals = append(arrivals, r.ID)
			if at, ok := committedAt[r.ID]; ok && time.Since(at) > 5*time.Second {
				t.Errorf("event %s arrived %v after its commit", r.ID, time.Since(at))
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	if len(seen) != changes {
		t.Errorf("%d of %d events arrived", len(seen), changes)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("event %s arrived %d times", id, n)
		}
	}
	for i := 1; i < len(arrivals); i++ {
		a, _ := strconv.Atoi(arrivals[i-1])
		b, _ := strconv.Atoi(arrivals[i])
		if b <= a {
			t.Errorf("event %d arrived after %d: out of feed order", b, a)
		}
	}
}

// TestWebhookDeliveriesFollowWhatEachWebhookReceives: an event is queued
// for exactly the webhooks that receive its type when it is recorded: none
// for a disabled webhook, the new types after a change of events.
func TestWebhookDeliveriesFollowWhatEachWebhookReceives(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		changed, _ := whCreate(t, env, map[string]any{"url": "https://shop.example/changed", "events": []string{"stock.changed"}})
		status, _ := whCreate(t, env, map[string]any{"url": "https://shop.example/status", "events": []string{"order.statusChanged"}})
		count := func(id int64) int { return len(whDeliveries(t, env, id)) }

		f.put(t, f.art1, ohWarehouse(f.main), 4)
		if c, s := count(changed), count(status); c != 1 || s != 0 {
			t.Fatalf("after a stock change: %d and %d deliveries, want 1 and 0", c, s)
		}
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/webhooks/%d", changed), map[string]any{"enabled": false}))
		f.put(t, f.art1, ohWarehouse(f.main), 5)
		if c := count(changed); c != 1 {
			t.Fatalf("a disabled webhook got a delivery: %d", c)
		}
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/webhooks/%d", status), map[string]any{"events": []string{"stock.changed", "order.statusChanged"}}))
		ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/webhooks/%d", changed), map[string]any{"enabled": true}))
		f.put(t, f.art1, ohWarehouse(f.main), 6)
		if c, s := count(changed), count(status); c != 2 || s != 1 {
			t.Fatalf("after re-enabling and a change of events: %d and %d deliveries, want 2 and 1", c, s)
		}
		ohOK(t, env.Do(t, http.MethodDelete, fmt.Sprintf("/api/webhooks/%d", changed), nil))
		f.put(t, f.art1, ohWarehouse(f.main), 7)
		if s := count(status); s != 2 {
			t.Fatalf("after deleting the other webhook: %d deliveries, want 2", s)
		}
	})
}

// Every special-purpose address range is refused at delivery; the ranges
// other than loopback, private, link-local and unspecified stay refused when
// INVENTORY_WEBHOOK_ALLOW_PRIVATE lets those four through. The URLs hold
// literal addresses: nothing is dialled.
func TestWebhookRefusesSpecialPurposeAddresses(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		local := []string{"http://0.0.0.0:9/", "http://10.0.0.1/", "http://127.0.0.1:9/", "http://169.254.169.254/latest/meta-data/",
			"http://172.16.0.1/", "http://192.168.1.1/", "http://[::]:9/", "http://[::1]:9/", "http://[fd00::1]/", "http://[fe80::1%25eth0]/"}
		special := []string{"http://0.1.2.3/", "http://100.100.100.200/latest/meta-data/", "http://192.0.0.170/", "http://192.0.2.1/",
			"http://192.31.196.1/", "http://192.52.193.1/", "http://192.88.99.1/", "http://192.175.48.1/", "http://198.18.0.1/",
			"http://198.19.255.254/", "http://198.51.100.1/", "http://203.0.113.1/", "http://224.0.0.1/", "http://240.0.0.1/",
			"http://255.255.255.255/", "http://[::2]/", "http://[::ffff:100.64.0.1]/", "http://[::ffff:0:808:808]/",
			"http://[64:ff9b::a9fe:a9fe]/", "http://[64:ff9b:1::1]/", "http://[100::1]/", "http://[100:0:0:1::1]/", "http://[2001::1]/",
			"http://[2001:db8::1]/", "http://[2002:a9fe:a9fe::1]/", "http://[2620:4f:8000::1]/", "http://[3fff::1]/", "http://[5f00::1]/",
			"http://[fec0::1]/", "http://[ff02::1]/"}
		hooks := map[string]int64{}
		for _, u := range append(slices.Clone(local), special...) {
			hooks[u], _ = whCreate(t, f.env, map[string]any{"url": u, "events": []string{"stock.changed"}})
		}
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		dispatchAll := func(d *application.WebhookDispatcher, n int) {
			t.Helper()
			failed := 0
			for deadline := time.Now().Add(5 * time.Second); failed < n && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				r := whDispatch(t, d)
				if r.Sent+r.GivenUp != 0 {
					t.Fatalf("report %+v: a delivery went out", r)
				}
				failed += r.Retrying
			}
			if failed != n {
				t.Fatalf("%d attempts failed, want %d", failed, n)
			}
		}
		expect := func(urls []string, attempts int) {
			t.Helper()
			for _, u := range urls {
				dl := whDeliveries(t, f.env, hooks[u])
				if len(dl) != 1 || dl[0]["lastError"] != "address not allowed" || dl[0]["attempts"] != float64(attempts) || dl[0]["lastStatusCode"] != nil {
					t.Errorf("%s: deliveries %v, want %d attempts refused", u, dl, attempts)
				}
			}
		}
		// Retries wait an hour, so that no delivery is tried twice in a
		// round however slowly the round goes; the test makes them due.
		slow := func(allowPrivate bool) *application.WebhookDispatcher {
			d := whDispatcher(f.env, allowPrivate)
			d.Schedule.Delays, d.Schedule.Repeat, d.Schedule.GiveUpAfter = []time.Duration{time.Hour}, time.Hour, 24*time.Hour
			return d
		}
		dispatchAll(slow(false), len(hooks))
		expect(local, 1)
		expect(special, 1)

		for _, u := range local {
			if res := f.env.Do(t, http.MethodDelete, fmt.Sprintf("/api/webhooks/%d", hooks[u]), nil); res.Status != http.StatusOK && res.Status != http.StatusNoContent {
				t.Fatalf("delete %s: %s", u, res)
			}
		}
		if _, err := f.env.DB.Bun().NewUpdate().Table("webhook_deliveries").Set("next_attempt_at = ?", time.Now().Add(-time.Minute)).
			Where("status = 'pending'").Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		dispatchAll(slow(true), len(special))
		expect(special, 2)
	})
}

// A delivery's lastError tells what happened in words, without the raw
// error of the network stack: no address of the receiver or of the resolver.
func TestWebhookLastErrorSaysWhatHappened(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		closed := httptest.NewServer(http.NotFoundHandler())
		closed.Close()
		plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
		t.Cleanup(plain.Close)
		untrusted := httptest.NewUnstartedServer(http.NotFoundHandler())
		untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the test makes fail
		untrusted.StartTLS()
		t.Cleanup(untrusted.Close)
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body) // so that the server notices the client leave
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}))
		t.Cleanup(slow.Close)
		want := map[string]string{
			closed.URL:                    "connection refused",
			"http://nonexistent.invalid/": "could not resolve the host name",
			slow.URL:                      "timed out after 0.3 s",
			"https" + strings.TrimPrefix(plain.URL, "http"): "TLS handshake failed: the receiver answered in plain HTTP",
			untrusted.URL:               "TLS handshake failed: the certificate is not signed by a trusted authority",
			plain.URL:                   "the receiver answered HTTP 500",
			"http://[64:ff9b::7f00:1]/": "address not allowed",
		}
		hooks := map[string]int64{}
		for u := range want {
			hooks[u], _ = whCreate(t, f.env, map[string]any{"url": u, "events": []string{"stock.changed"}})
		}
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		d := whDispatcher(f.env, true)
		d.Timeout = 300 * time.Millisecond
		if r := whDispatch(t, d); r.Retrying != len(want) {
			t.Fatalf("report %+v, want %d failed attempts", r, len(want))
		}
		address := regexp.MustCompile(`\d+\.\d+\.\d+\.\d+|\[?[0-9a-fA-F]*:[0-9a-fA-F:]*:[0-9a-fA-F]*\]?|dial tcp|lookup`)
		for u, msg := range want {
			dl := whDeliveries(t, f.env, hooks[u])
			got, _ := dl[0]["lastError"].(string)
			if got != msg {
				t.Errorf("%s: lastError %q, want %q", u, got, msg)
			}
			if a := address.FindString(got); a != "" {
				t.Errorf("%s: lastError %q shows %q", u, got, a)
			}
		}
	})
}
