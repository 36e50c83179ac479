package http

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// A handler without use cases panics on the first authenticated request:
// the client must get the JSON 500 with the request id, the log the panic.
func TestAPanicBecomesAJSON500WithTheRequestID(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	h, err := NewHandler(nil, zap.New(core), Config{}, nil, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/api/warehouses", nil)
	req.SetBasicAuth("admin", "secret")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)

	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", rec.Code)
	}
	id := rec.Header().Get("X-Request-Id")
	var body errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Success || id == "" || !strings.Contains(body.Message, id) {
		t.Fatalf("body %s, request id %q", rec.Body.String(), id)
	}
	if strings.Contains(rec.Body.String(), "nil pointer") {
		t.Fatalf("internals leaked: %s", rec.Body.String())
	}
	if logs.FilterMessage("panic").Len() != 1 {
		t.Fatalf("the panic is logged: %v", logs.All())
	}
}

func TestAClientRequestIDIsKeptWhenSane(t *testing.T) {
	h, err := NewHandler(nil, zap.NewNop(), Config{}, nil, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ sent, kept bool }{{true, true}, {false, false}} {
		req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
		sent := "abc-123"
		if !tc.sent {
			sent = "bad id with spaces"
		}
		req.Header.Set("X-Request-Id", sent)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("X-Request-Id"); (got == sent) != tc.kept || got == "" {
			t.Errorf("sent %q, answered %q", sent, got)
		}
	}
}

func TestUnknownAPIRoutesAskForCredentialsFirst(t *testing.T) {
	h, err := NewHandler(nil, zap.NewNop(), Config{}, nil, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{
		"/api/nothing-here": http.StatusUnauthorized,
		"/nothing-here":     http.StatusNotFound,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("GET %s without credentials: %d, want %d", path, rec.Code, want)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPatch, "/api/warehouses", nil))
	if rec.Code != http.StatusUnauthorized || rec.Header().Get("WWW-Authenticate") == "" {
		t.Errorf("a wrong method without credentials: %d", rec.Code)
	}
}

func TestMetricsCountRequestsByRoute(t *testing.T) {
	reg := prometheus.NewRegistry()
	h, err := NewHandler(nil, zap.NewNop(), Config{}, nil, reg)
	if err != nil {
		t.Fatal(err)
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/healthz", nil))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	want := `inventory_http_requests_total{method="GET",route="GET /healthz",status="200"} 1`
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
		t.Fatalf("metrics lack %s:\n%s", want, rec.Body.String())
	}
}
