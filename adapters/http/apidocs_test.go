package http

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

func TestTheAPIDocumentsAnswerWhenTheServiceIsFull(t *testing.T) {
	h, err := NewHandler(nil, zap.NewNop(), Config{MaxInFlight: 1}, nil, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	h.inFlight <- struct{}{} // the one slot is taken
	for path, want := range map[string]int{
		"/api/docs":                     http.StatusOK,
		"/api/docs/redoc.standalone.js": http.StatusOK,
		"/api/openapi.json":             http.StatusOK,
		"/api/warehouses":               http.StatusServiceUnavailable,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("GET %s with every slot taken: %d, want %d", path, rec.Code, want)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"":                        false,
		"gzip":                    true,
		"gzip, deflate, br, zstd": true,
		"br;q=1.0, GZIP;q=0.5":    true,
		"gzip;q=0":                false,
		"gzip; q=0.000":           false,
		"gzip;q=nonsense":         false,
		"identity":                false,
		"x-gzip":                  false,
		"deflate, gzip;q=0.001":   true,
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if header != "" {
			r.Header.Set("Accept-Encoding", header)
		}
		if got := acceptsGzip(r); got != want {
			t.Errorf("Accept-Encoding %q: gzip %v, want %v", header, got, want)
		}
	}
}
