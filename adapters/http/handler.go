// Package http is the HTTP adapter: it owns the JSON shapes, the list
// parameters and the error table, and drives the application's use cases.
package http

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/spool"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/idempotency"
	"github.com/shopstock/inventory/domain/lockout"
)

// Config is what the adapter needs beyond the use cases.
type Config struct {
	// BaseURL prefixes the location of created resources; empty means
	// derive it from the request.
	BaseURL string
	// RequestTimeout cancels a request still running after it (zero: the
	// default, 60 s).
	RequestTimeout time.Duration
	// MaxInFlight is how many requests run at once; more get 503 (zero:
	// the default, 256).
	MaxInFlight int
	// TrustedProxies are the peers whose X-Forwarded-Proto, -Host and -For
	// headers are believed; from anyone else they are ignored.
	TrustedProxies []netip.Prefix
	// Now is the clock of the failed-attempt limits; nil means time.Now.
	Now func() time.Time
	// Lockout is the rule of failed authentication attempts; its zero
	// fields take the contract's values (lockout.Contract).
	Lockout lockout.Rule
	// BodyTimeout is how long the whole body of a request read before its
	// credentials (the console's sign-in) may take to arrive (zero: the
	// default, 10 s).
	BodyTimeout time.Duration
	// WriteTimeout is how long each write of an answer may take before the
	// connection is closed (zero: the default, 30 s).
	WriteTimeout time.Duration
	// BodyIdleTimeout is how long a request body may bring nothing before
	// the request is answered 408 and its connection closed (zero: the
	// default, 10 s).
	BodyIdleTimeout time.Duration
	// UploadTimeout is how long the whole body of an authenticated request
	// may take to arrive (zero: the default, 60 s). The request's own
	// RequestTimeout starts once it is in.
	UploadTimeout time.Duration
}

func (c Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Readiness tells whether the service can serve (the database answers).
type Readiness func(ctx context.Context) error

// Handler serves the whole HTTP interface.
type Handler struct {
	app       *application.App
	log       *zap.Logger
	cfg       Config
	ready     Readiness
	mux       *http.ServeMux
	validator *validator.Validate
	requests  *prometheus.CounterVec
	durations *prometheus.HistogramVec
	attempts  *attemptGuard
	// unlisted lists routes registered without an entry in routeActions.
	unlisted []string
	inFlight chan struct{}
	// bodyFirst lists the routes, "METHOD /path", whose bodies are read
	// before any credentials, with the most bytes each may have.
	bodyFirst map[string]int64
	// positions are the last commits of each API user here (routeReads).
	positions writePositions
}

// NewHandler builds the handler and registers its metrics with reg.
func NewHandler(app *application.App, log *zap.Logger, cfg Config, ready Readiness, reg *prometheus.Registry) (*Handler, error) {
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = DefaultMaxInFlight
	}
	cfg.BodyTimeout = cmp.Or(cfg.BodyTimeout, DefaultBodyTimeout)
	cfg.WriteTimeout = cmp.Or(cfg.WriteTimeout, DefaultWriteTimeout)
	cfg.BodyIdleTimeout = cmp.Or(cfg.BodyIdleTimeout, DefaultBodyIdleTimeout)
	cfg.UploadTimeout = cmp.Or(cfg.UploadTimeout, DefaultUploadTimeout)
	h := &Handler{
		app: app, log: log, cfg: cfg, ready: ready, mux: http.NewServeMux(), validator: newValidator(),
		attempts: newAttemptGuard(cfg.Lockout),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "inventory_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"method", "route", "status"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "inventory_http_request_duration_seconds", Help: "HTTP request durations by route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route"}),
		inFlight:  make(chan struct{}, cfg.MaxInFlight),
		bodyFirst: map[string]int64{},
	}
	for _, c := range []prometheus.Collector{h.requests, h.durations} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register metrics: %w", err)
		}
	}
	h.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "status": "alive"})
	})
	h.mux.HandleFunc("GET /readyz", h.readyz)
	h.mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	h.mux.HandleFunc("GET /api/openapi.json", serveOpenAPI)
	h.mux.HandleFunc("GET /api/docs", serveAPIDocs)
	h.mux.HandleFunc("GET /api/docs/redoc.standalone.js", serveRedocBundle)
	h.routes()
	if len(h.unlisted) > 0 {
		return nil, fmt.Errorf("routes without an entry in routeActions (adapters/http/roles.go): %s", strings.Join(h.unlisted, ", "))
	}
	for pattern := range privateAnswers {
		if _, known := routeActions[pattern]; !known {
			return nil, fmt.Errorf("privateAnswers (adapters/http/nostore.go) names %q, which is no route", pattern)
		}
	}
	return h, nil
}

func (h *Handler) routes() {
	h.warehouseRoutes()
	h.binLocationRoutes()
	h.stockRoutes()
	h.articleRoutes()
	h.orderRoutes()
	h.stockCSVRoutes()
	h.userRoutes()
	h.eventRoutes()
	h.webhookRoutes()
	h.pickingRoutes()
	h.returnRoutes()
	h.purchaseOrderRoutes()
	h.transferRoutes()
	h.lotRoutes()
	h.countRoutes()
	h.waveRoutes()
}

// api registers an authenticated route whose handler reports failures as
// errors, so that every error goes through writeError. What the route does
// comes from routeActions; who may do it, from the permission table.
func (h *Handler) api(pattern string, fn func(w http.ResponseWriter, r *http.Request) error) {
	action, known := routeActions[pattern]
	if !known {
		h.unlisted = append(h.unlisted, pattern)
	}
	private := privateAnswers[pattern]
	h.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if private {
			w.Header().Set("Cache-Control", "no-store")
		}
		r, err := h.authenticate(r)
		if err == nil {
			err = authorize(r, action)
		}
		if err == nil {
			err = checkRequest(r)
		}
		if err == nil {
			r, err = h.routeReads(w, r)
		}
		if err == nil && hasBody(r) {
			// Credentials and role are checked: the body may come.
			var body *spool.Body
			if body, err = h.receiveBody(w, r, pattern); body != nil {
				defer body.Close()
			}
		}
		if err == nil {
			err = fn(w, r)
		}
		if err != nil {
			h.writeError(w, r, err)
		}
	})
}

// checkRequest applies what holds for every API request before its handler
// reads it: every query parameter, name and values, and an idempotency key
// in the path follow the text rules.
func checkRequest(r *http.Request) error {
	if name, err := code.CheckParameters(r.URL.Query(), queryRule); err != nil {
		return errs.InvalidFields(errs.FieldError{Property: name, Message: err.Error()})
	}
	if key := r.PathValue("idempotencyKey"); key != "" || strings.Contains(r.Pattern, "{idempotencyKey}") {
		_, err := idempotency.ParseKey(key)
		return err
	}
	return nil
}

// queryRule lets a filter's value be a comma list (IN, NOT IN) longer than
// a short text; every other parameter is one.
func queryRule(name string) code.ParameterRule {
	if m := listKey.FindStringSubmatch(name); m != nil && m[1] == "filter" && m[3] == "value" {
		return code.ParameterRule{Max: code.MaxLongText}
	}
	return code.ParameterRule{}
}

func (h *Handler) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := h.ready(ctx); err != nil {
		h.log.Warn("not ready", zap.Error(err))
		writeJSON(w, http.StatusServiceUnavailable, errorBody{Message: "the database is unavailable"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "status": "ready"})
}

type ctxKey int

const (
	requestIDKey ctxKey = iota
	userKey
	requestInfoKey
)

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// apiUser is the name of the authenticated API user of the request.
func apiUser(ctx context.Context) string {
	u, _ := ctx.Value(userKey).(string)
	return u
}

var acceptableRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ServeHTTP adds the request id, recovery, metrics and the access log, and
// answers unknown routes and methods in the JSON error shape.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := r.Header.Get("X-Request-Id")
	if !acceptableRequestID.MatchString(id) {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	info := &requestInfo{}
	ctx := context.WithValue(r.Context(), requestIDKey, id)
	r = r.WithContext(context.WithValue(ctx, requestInfoKey, info))
	w.Header().Set("X-Request-Id", id)
	// No answer is to be read as another type than it says.
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// An answer that is never written (the client stopped reading) must
	// not hold its slot and database connection: every write has its own
	// deadline, and the answer as a whole one at the latest when the
	// request's time is up and one write's more.
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(start.Add(h.cfg.RequestTimeout + h.cfg.WriteTimeout))
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK, rc: rc, writeTimeout: h.cfg.WriteTimeout}

	_, pattern := h.mux.Handler(r)
	route := pattern // a registered pattern, or the one fixed value below
	if route == "" {
		route = "unmatched"
	}
	// The deadline is a timer rather than the context's own, so that it
	// can stand still while a body arrives (receive).
	ctx, cancel := context.WithCancelCause(r.Context())
	adm := &admission{h: h, limited: !unlimited[pattern], rc: rc, cause: cancel,
		deadline: time.AfterFunc(h.cfg.RequestTimeout, func() { cancel(errRequestTimedOut) })}
	defer adm.end()
	r = r.WithContext(context.WithValue(ctx, admissionKey{}, adm))
	defer func() {
		p := recover()
		// ErrAbortHandler cuts a response that broke off after it began
		// (an export whose client stopped reading): the server closes the
		// connection, so the client cannot take a truncated body for a
		// whole one.
		abort := p == http.ErrAbortHandler
		if p != nil && !abort {
			h.log.Error("panic", zap.String("request_id", id), zap.Any("panic", p), zap.Stack("stack"))
			if !rec.wrote {
				h.writeError(rec, r, fmt.Errorf("panic: %v", p))
			}
		}
		elapsed := time.Since(start)
		method := methodLabel(r.Method)
		h.requests.WithLabelValues(method, route, strconv.Itoa(rec.status)).Inc()
		h.durations.WithLabelValues(method, route).Observe(elapsed.Seconds())
		h.log.Info("request", zap.String("request_id", id), zap.String("method", r.Method),
			zap.String("path", r.URL.Path), zap.Int("status", rec.status), zap.Duration("duration", elapsed),
			zap.String("user", info.user), zap.String("client", h.ClientAddress(r)))
		if abort {
			panic(http.ErrAbortHandler)
		}
	}()
	if headerBytes(r) > MaxHeaderBytes {
		h.writeError(rec, r, errHeadersTooLarge)
		return
	}
	if max, ok := h.bodyFirst[r.Method+" "+r.URL.Path]; ok {
		if err := h.readBodyFirst(rec, r, max); err != nil {
			h.writeError(rec, r, err)
			return
		}
	}
	if !adm.admit() {
		rec.Header().Set("Retry-After", "1")
		h.writeError(rec, r, errBusy)
		return
	}
	if pattern == "" {
		h.unmatched(rec, r)
		return
	}
	h.mux.ServeHTTP(rec, r)
}

// publicDocuments are the paths under /api/ that need no credentials: the
// document that describes the API and the reference rendered from it.
var publicDocuments = map[string]bool{"/api/openapi.json": true, "/api/docs": true, "/api/docs/redoc.standalone.js": true}

// unmatched tells 404 from 405 the way the mux would, but in JSON.
func (h *Handler) unmatched(w http.ResponseWriter, r *http.Request) {
	// The API answers nothing about itself, not even what does not exist,
	// to a caller without credentials; its public documents excepted.
	if strings.HasPrefix(r.URL.Path, "/api/") && !publicDocuments[r.URL.Path] {
		if _, err := h.authenticate(r); err != nil {
			h.writeError(w, r, err)
			return
		}
	}
	handler, _ := h.mux.Handler(r)
	probe := &statusRecorder{ResponseWriter: discard{header: http.Header{}}, status: http.StatusOK}
	handler.ServeHTTP(probe, r)
	if probe.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", probe.Header().Get("Allow"))
		h.writeError(w, r, errMethod)
		return
	}
	h.writeError(w, r, errNotFound)
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
	// rc sets the connection's write deadline, writeTimeout long, before
	// each write; nil where the writer has no connection (a probe).
	rc           *http.ResponseController
	writeTimeout time.Duration
}

// Unwrap lets http.ResponseController reach the connection.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
		s.ResponseWriter.WriteHeader(code)
	}
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wrote = true
	s.pushWriteDeadline()
	return s.ResponseWriter.Write(b)
}

type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}

// pathID reads a positive integer path value; anything else names nothing.
func pathID(r *http.Request, name, resource string) (int64, error) {
	raw := r.PathValue(name)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 || id > maxID {
		return 0, notFoundError(resource, raw)
	}
	return id, nil
}

// location is the URL of a created resource.
func (h *Handler) location(r *http.Request, path string) string {
	base := strings.TrimRight(h.cfg.BaseURL, "/")
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		host := r.Host
		if h.fromTrustedProxy(r) {
			if p := strings.ToLower(strings.TrimSpace(strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")[0])); p == "http" || p == "https" {
				scheme = p
			}
			if fh := forwardedHost(r); fh != "" {
				host = fh
			}
		}
		base = scheme + "://" + host
	}
	return base + path
}
