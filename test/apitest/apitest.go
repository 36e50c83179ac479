// Package apitest runs the whole service behind an httptest server for
// acceptance tests over HTTP. Every response a test receives is checked
// against the embedded OpenAPI document, so the document and the service
// cannot drift apart unnoticed.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/adapters/secretkey"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/lockout"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// User and Key are the credentials of the API user every Env has.
const (
	User = "admin"
	Key  = "secret-test-key-0123"
)

// Env is a running service on a fresh database. An Env made by hand, with
// only URL set, sends requests to a server of the test's own making.
type Env struct {
	App *application.App
	DB  *bunstore.DB
	URL string // base URL of the server, without a trailing slash

	client *http.Client
}

// utcClock is the real time, in UTC, as the service runs with.
type utcClock struct{}

func (utcClock) Now() time.Time { return time.Now().UTC() }

// New opens and migrates the database at databaseURL, creates the API user
// admin:secret and serves the HTTP interface until the test ends.
func New(t *testing.T, databaseURL string) *Env {
	t.Helper()
	// Tests of everything but the limit itself send many wrong credentials
	// from one address; the limit has tests of its own at its real value.
	return NewWithConfig(t, databaseURL, httpapi.Config{Lockout: lockout.Rule{PerAddress: 1 << 20, PerName: 1 << 20}})
}

// NewWithConfig is New with the HTTP adapter's configuration (limits,
// trusted proxies) as given.
func NewWithConfig(t *testing.T, databaseURL string, cfg httpapi.Config) *Env {
	t.Helper()
	return NewWithSecrets(t, databaseURL, cfg, Secrets(t))
}

// Secrets is the keyring of testdb.SecretKey, the secret every Env has
// unless a test gives another.
func Secrets(t testing.TB) *secretkey.Keyring {
	t.Helper()
	return SecretsOf(t, testdb.SecretKey)
}

// SecretsOf is the keyring of a secret written as INVENTORY_SECRET_KEY is.
func SecretsOf(t testing.TB, secret string) *secretkey.Keyring {
	t.Helper()
	b, err := secretkey.Parse(secret)
	if err != nil {
		t.Fatalf("apitest: secret: %v", err)
	}
	k, err := secretkey.New(b, nil)
	if err != nil {
		t.Fatalf("apitest: secret: %v", err)
	}
	return k
}

// NewWithSecrets is NewWithConfig with the service's secret as given.
func NewWithSecrets(t *testing.T, databaseURL string, cfg httpapi.Config, secrets ports.Secrets) *Env {
	t.Helper()
	ctx := context.Background()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatalf("apitest: open %s: %v", databaseURL, err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Logf("apitest: close database: %v", err)
		}
	})
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("apitest: migrate: %v", err)
	}
	app := application.New(db, utcClock{}, secrets)
	if _, err := app.EnsureAPIUser(application.WithPrincipal(ctx, application.System), User, Key); err != nil {
		t.Fatalf("apitest: ensure API user: %v", err)
	}
	// Warnings and errors only: the access log of every request would drown
	// the output of a failing test.
	log := zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	h, err := httpapi.NewHandler(app, log, cfg, db.Ping, prometheus.NewRegistry())
	if err != nil {
		t.Fatalf("apitest: handler: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close) // runs before the database is closed
	return &Env{App: app, DB: db, URL: srv.URL, client: srv.Client()}
}

// As makes the user name, in role, the caller of the use cases that ctx is
// passed to, as a request of that user would.
func As(ctx context.Context, name string, role user.Role) context.Context {
	return application.WithPrincipal(ctx, application.Principal{Name: name, Role: role})
}

// Admin is a background context whose caller is the API user every Env
// has, an admin: for tests that drive the use cases directly and are not
// about who may.
func Admin() context.Context { return As(context.Background(), User, user.Admin) }

// Response is a complete HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as a JSON object.
func (r *Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.Decode(t, &m)
	return m
}

// Decode decodes the body into v; numbers in interfaces become json.Number
// only when v asks for them, float64 otherwise.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("apitest: response body is not the expected JSON (%v): %s", err, excerpt(r.Body))
	}
}

// String shows the response for failure messages.
func (r *Response) String() string {
	return fmt.Sprintf("%d %s", r.Status, excerpt(r.Body))
}

// Do sends a request with the API user's credentials. body is nil (no body),
// a string or []byte sent as it is, or a value sent as JSON; with a body the
// Content-Type is application/json.
func (e *Env) Do(t testing.TB, method, path string, body any) *Response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		case []byte:
			rd = bytes.NewReader(b)
		default:
			raw, err := json.Marshal(b)
			if err != nil {
				t.Fatalf("apitest: marshal request body: %v", err)
			}
			rd = bytes.NewReader(raw)
		}
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		t.Fatalf("apitest: request %s %s: %v", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.SetBasicAuth(User, Key)
	return e.DoRaw(t, req)
}

// DoRaw sends req as it is (no credentials are added). A request whose URL
// has no host goes to the test server.
func (e *Env) DoRaw(t testing.TB, req *http.Request) *Response {
	t.Helper()
	if req.URL.Host == "" {
		base, _ := url.Parse(e.URL)
		req.URL.Scheme, req.URL.Host = base.Scheme, base.Host
		req.Host = ""
	}
	client := e.client
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("apitest: %s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("apitest: read response of %s %s: %v", req.Method, req.URL.Path, err)
	}
	r := &Response{Status: res.StatusCode, Header: res.Header, Body: body}
	if err := validate(req, r); err != nil {
		t.Errorf("apitest: %s %s answered %d, which the OpenAPI document does not allow:\n%v\nbody: %s",
			req.Method, req.URL.RequestURI(), r.Status, err, excerpt(r.Body))
	}
	return r
}

func excerpt(b []byte) string {
	const max = 2000
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// The document, loaded and checked once per test binary.
var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

// Spec returns the embedded OpenAPI document, loaded and validated.
func Spec(t testing.TB) *openapi3.T {
	t.Helper()
	if err := loadSpec(); err != nil {
		t.Fatal(err)
	}
	return specDoc
}

func loadSpec() error {
	specOnce.Do(func() {
		// The reference page and its viewer are text the document types
		// as strings; the validator reads them as it reads text/plain.
		openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
		openapi3filter.RegisterBodyDecoder("text/javascript", openapi3filter.PlainBodyDecoder)
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(httpapi.OpenAPIDocument)
		if err != nil {
			specErr = fmt.Errorf("apitest: load the OpenAPI document: %w", err)
			return
		}
		if err := doc.Validate(loader.Context); err != nil {
			specErr = fmt.Errorf("apitest: the OpenAPI document is invalid: %w", err)
			return
		}
		// No servers: routes match on any scheme and host, the test server's too.
		doc.Servers = nil
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			specErr = fmt.Errorf("apitest: route the OpenAPI document: %w", err)
			return
		}
		specDoc, specRouter = doc, router
	})
	return specErr
}

var validationOptions = &openapi3filter.Options{
	IncludeResponseStatus: true,
	MultiError:            true,
	AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
}

// validate checks a response against the document. Routes the document
// does not know must be answered 404, documented paths with another method
// 405, both with the error body.
func validate(req *http.Request, r *Response) error {
	if err := loadSpec(); err != nil {
		return err
	}
	route, pathParams, err := specRouter.FindRoute(req)
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		return validateUndocumented(r, http.StatusNotFound, "the route is not in the document")
	case errors.Is(err, routers.ErrMethodNotAllowed):
		if r.Status == http.StatusMethodNotAllowed && r.Header.Get("Allow") == "" {
			return errors.New("a 405 without an Allow header")
		}
		return validateUndocumented(r, http.StatusMethodNotAllowed, "the method is not in the document for this path")
	case err != nil:
		return fmt.Errorf("find route: %w", err)
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: pathParams, Route: route, Options: validationOptions,
		},
		Status:  r.Status,
		Header:  r.Header,
		Options: validationOptions,
	}
	input.SetBodyBytes(r.Body)
	return openapi3filter.ValidateResponse(context.Background(), input)
}

func validateUndocumented(r *Response, want int, why string) error {
	if r.Status != want {
		return fmt.Errorf("%s, so %d was expected", why, want)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("error response with Content-Type %q", ct)
	}
	var body any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return fmt.Errorf("error body is not JSON: %w", err)
	}
	return specDoc.Components.Schemas["Error"].Value.VisitJSON(body, openapi3.MultiErrors())
}
