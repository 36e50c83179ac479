package test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Every answer that shows a key, a secret or personal data says no-store;
// the header comes from the route, so the database does not matter here.
func TestAnswersWithSecretsOrPersonalDataAreNotStored(t *testing.T) {
	env := apitest.New(t, testdb.SQLite(t))
	wh := whCreated(t, env, env.Do(t, "POST", "/api/warehouses", map[string]any{
		"code": "NS", "name": "No store", "contact": "Jane Roe", "email": "jane@example.com",
	}), "/api/warehouses", true)
	art := whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "NS-1", "name": "Widget"}), "/api/articleDetails", false)
	order := whCreated(t, env, env.Do(t, "POST", "/api/orders", map[string]any{
		"number": "NS-O1", "customerEmail": "a@example.com", "details": []any{map[string]any{"articleDetailId": art, "quantity": 1}},
	}), "/api/orders", false)
	webhook := whCreated(t, env, env.Do(t, "POST", "/api/webhooks", map[string]any{
		"url": "https://shop.example/hooks", "events": []any{"stock.changed"},
	}), "/api/webhooks", false)
	user := whCreated(t, env, env.Do(t, "POST", "/api/users", map[string]any{"name": "shop", "role": "reader"}), "/api/users", false)

	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		private      bool
	}{
		{"POST", "/api/users", map[string]any{"name": "other", "role": "reader"}, http.StatusCreated, true},
		{"POST", fmt.Sprintf("/api/users/%d/rotateKey", user), map[string]any{}, http.StatusOK, true},
		{"PUT", fmt.Sprintf("/api/users/%d", user), map[string]any{"role": "operator"}, http.StatusOK, true},
		{"GET", "/api/users", nil, http.StatusOK, true},
		{"GET", fmt.Sprintf("/api/users/%d", user), nil, http.StatusOK, true},
		{"POST", "/api/webhooks", map[string]any{"url": "https://shop.example/other", "events": []any{"stock.changed"}}, http.StatusCreated, true},
		{"POST", fmt.Sprintf("/api/webhooks/%d/rotateSecret", webhook), map[string]any{}, http.StatusOK, true},
		{"GET", "/api/orders", nil, http.StatusOK, true},
		{"GET", fmt.Sprintf("/api/orders/%d", order), nil, http.StatusOK, true},
		{"GET", "/api/warehouses", nil, http.StatusOK, true},
		{"GET", fmt.Sprintf("/api/warehouses/%d", wh), nil, http.StatusOK, true},
		// A refused request to such a route says it too.
		{"GET", "/api/orders/999999", nil, http.StatusNotFound, true},
		// Answers without such data may be kept.
		{"GET", "/api/articleDetails", nil, http.StatusOK, false},
		{"GET", fmt.Sprintf("/api/webhooks/%d", webhook), nil, http.StatusOK, false},
		{"GET", "/healthz", nil, http.StatusOK, false},
	} {
		res := env.Do(t, tc.method, tc.path, tc.body)
		got := res.Header.Get("Cache-Control")
		if res.Status != tc.status {
			t.Errorf("%s %s: %s, want %d", tc.method, tc.path, res, tc.status)
		}
		if want := map[bool]string{true: "no-store"}[tc.private]; got != want {
			t.Errorf("%s %s: Cache-Control %q, want %q", tc.method, tc.path, got, want)
		}
	}
}
