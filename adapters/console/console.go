// Package console is the warehouse console: server-rendered pages for the
// people who receive, put away, count, pick and ship. It drives the same
// use cases as the JSON API and owns nothing but pages and forms.
package console

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Prefix is where the console is mounted.
const Prefix = "/console/"

// Config is what the console needs beyond the use cases.
type Config struct {
	// HTTPS tells whether a request reached the service over https (the
	// HTTP adapter's notion, which honours trusted proxies); nil: only a
	// TLS connection counts.
	HTTPS func(*http.Request) bool
	// Guard holds sign-ins to the API's failed-attempt limits; nil: none.
	Guard SignInGuard
	// FormKey signs the sign-in form's tokens. Instances behind one address
	// share it (application.ConsoleFormKey), so that a form one of them
	// served is accepted by another; empty: a random key per process.
	FormKey []byte
}

// SignInGuard limits failed sign-ins per user name and client address.
type SignInGuard interface {
	// SignInLocked tells how long name must wait from this client (0: none).
	SignInLocked(r *http.Request, name string) time.Duration
	// SignInFailed counts a failed sign-in.
	SignInFailed(r *http.Request, name string)
}

// Handler serves the console under Prefix.
type Handler struct {
	app *application.App
	log *zap.Logger
	cfg Config
	mux *http.ServeMux
	// formKey signs the sign-in form's tokens.
	formKey []byte
	pages   map[string]*template.Template
	// receiveBody reads a post's body (ReceiveBodiesWith; readNow unless
	// mounted).
	receiveBody func(w http.ResponseWriter, r *http.Request, read func(body io.Reader) error) error
}

// New builds the console.
func New(app *application.App, log *zap.Logger, cfg Config) (*Handler, error) {
	if cfg.HTTPS == nil {
		cfg.HTTPS = func(r *http.Request) bool { return r.TLS != nil }
	}
	h := &Handler{app: app, log: log, cfg: cfg, mux: http.NewServeMux(), formKey: cfg.FormKey, receiveBody: readNow}
	if len(h.formKey) == 0 {
		h.formKey = make([]byte, 32)
		if _, err := rand.Read(h.formKey); err != nil {
			return nil, err
		}
	}
	if err := h.parseTemplates(); err != nil {
		return nil, err
	}
	static, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	files := http.StripPrefix("/console/static/", http.FileServerFS(static))
	h.mux.Handle("GET /console/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	}))
	h.mux.HandleFunc("GET /console/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/console/search", http.StatusSeeOther)
	})
	h.authRoutes()
	h.searchRoutes()
	h.productRoutes()
	h.binRoutes()
	h.countRoutes()
	h.labelRoutes()
	h.warehouseRoutes()
	h.orderRoutes()
	h.pickingRoutes()
	h.receivingRoutes()
	h.transferRoutes()
	h.relocateRoutes()
	h.lotRoutes()
	h.csvRoutes()
	h.lowStockRoutes()
	h.webhookRoutes()
	h.waveRoutes()
	return h, nil
}

// ServeHTTP serves a console request; the HTTP adapter around it logs,
// measures and recovers.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	if _, pattern := h.mux.Handler(r); pattern == "" {
		h.notFound(w, r)
		return
	}
	if h.refusedParameters(w, r, "parameter", r.URL.Query()) {
		return
	}
	h.mux.ServeHTTP(w, r)
}

// scanRule lets the search's q, which takes what a scanner sends, hold the
// GS1 group separator.
func scanRule(name string) code.ParameterRule {
	if name == "q" {
		return code.ParameterRule{Also: func(r rune) bool { return r == barcode.GroupSeparator }}
	}
	return code.ParameterRule{}
}

// refusedParameters answers 400 naming the first parameter (of the query,
// or a form's field) that breaks the text rule, which every one follows
// before any page reads it; false when all keep it. The file of a stock
// import (csv) is the one field exempt: its lines have their own checks.
func (h *Handler) refusedParameters(w http.ResponseWriter, r *http.Request, what string, params url.Values) bool {
	if _, ok := params["csv"]; ok && what == "field" {
		params = maps.Clone(params)
		delete(params, "csv")
	}
	name, err := code.CheckParameters(params, scanRule)
	if err == nil {
		return false
	}
	h.errorPage(w, r, http.StatusBadRequest, fmt.Sprintf("The %s %s %s.", what, name, err))
	return true
}

// templateFuncs are the functions the pages' templates call: these, and
// the barcodes barcodes.go draws. Each parse gets a map of its own.
func templateFuncs() template.FuncMap {
	funcs := template.FuncMap{
		"time": func(t any) string {
			switch v := t.(type) {
			case time.Time:
				return v.UTC().Format("2006-01-02 15:04")
			case *time.Time:
				if v == nil {
					return "—"
				}
				return v.UTC().Format("2006-01-02 15:04")
			}
			return ""
		},
		// day and clock split a time, so that a narrow column breaks between
		// them.
		"day":   func(t time.Time) string { return t.UTC().Format("2006-01-02") },
		"clock": func(t time.Time) string { return t.UTC().Format("15:04") },
		"signed": func(n int) string {
			if n > 0 {
				return "+" + strconv.Itoa(n)
			}
			return strconv.Itoa(n)
		},
		// query spells name-value pairs as a query string; a pair whose value is
		// nil (a partial's argument left out) is left out too.
		"query": func(pairs ...any) template.URL {
			v := url.Values{}
			for i := 0; i+1 < len(pairs); i += 2 {
				if pairs[i+1] != nil {
					v.Set(fmt.Sprint(pairs[i]), fmt.Sprint(pairs[i+1]))
				}
			}
			return template.URL(v.Encode())
		},
		"add": func(a, b int) int { return a + b },
		"sub": func(a, b int) int { return a - b },
		// dict hands a template several values: dict "form" $f "name" "warehouse".
		"dict": func(pairs ...any) map[string]any {
			m := map[string]any{}
			for i := 0; i+1 < len(pairs); i += 2 {
				m[fmt.Sprint(pairs[i])] = pairs[i+1]
			}
			return m
		},
		"str": func(v any) string { return fmt.Sprint(v) },
		// bin names a bin location by its code, the unknown one as unassigned.
		"bin": binName,
	}
	maps.Copy(funcs, barcodeFuncs())
	return funcs
}

func (h *Handler) parseTemplates() error {
	base, err := template.New("layout.html").Funcs(templateFuncs()).ParseFS(templateFS, "templates/layout.html")
	if err != nil {
		return err
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return err
	}
	h.pages = map[string]*template.Template{}
	for _, name := range names {
		short := strings.TrimSuffix(strings.TrimPrefix(name, "templates/"), ".html")
		if short == "layout" {
			continue
		}
		t, err := template.Must(base.Clone()).ParseFS(templateFS, name)
		if err != nil {
			return fmt.Errorf("console template %s: %w", name, err)
		}
		h.pages[short] = t
	}
	return nil
}

// view is what every page shows around its content.
type view struct {
	Title  string
	Nav    string
	User   *application.ConsoleUser
	CSRF   string
	Notice string
	Alert  string
	Query  string
	// Focus turns the header's search field's autofocus off for pages
	// whose own first field should have it.
	Focus bool
	// After is the address of the page a form was posted from, for a page
	// that answers the post: the script puts it in the history in place of
	// the post, so that Back and reload never send the form again.
	After string
	Data  any
}

// CanAct tells whether the pages offer their forms to the signed-in user:
// whether the permission table lets the user do what they do.
func (v view) CanAct() bool { return v.User != nil && canAct(v.User) }

// IsAdmin tells whether the signed-in user may manage webhooks, the part
// of the console that the permission table keeps for admins.
func (v view) IsAdmin() bool { return v.User != nil && may(v.User, access.ManageWebhooks) }

func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	t, ok := h.pages[name]
	if !ok {
		h.fail(w, r, fmt.Errorf("console: no template %q", name))
		return
	}
	if v.User != nil {
		v.CSRF = v.User.CSRFToken
	}
	if v.Notice == "" {
		v.Notice = h.takeFlash(w, r)
	}
	if r.Method == http.MethodPost {
		v.After = pageOf(r.URL.Path)
	}
	if status == http.StatusBadRequest {
		// The first field in error takes the focus.
		v.Focus = true
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", v); err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// pageOf is the page a form posted to path is on: the path without the
// form's action (/console/products/7/in: /console/products/7).
func pageOf(path string) string {
	if i := strings.Index(path, "/positions/"); i >= 0 {
		return path[:i]
	}
	switch path {
	case "/console/signin", "/console/signout":
		return "/console/signin"
	}
	// A purchase order's receive form posts to the order's own page.
	if strings.HasPrefix(path, "/console/receiving/") {
		return path
	}
	if i := strings.LastIndexByte(strings.TrimSuffix(path, "/"), '/'); i > 0 {
		return path[:i]
	}
	return "/console/search"
}

// fail shows an error page: the message for what the person can act on,
// a reference to the log for anything else.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := http.StatusInternalServerError, "Something went wrong on our side. The log has the details."
	switch errs.KindOf(err) {
	case errs.Forbidden:
		// The use case's own check, should a page get past the adapter's.
		h.forbidden(w, r, strings.TrimPrefix(messageOf(err), "forbidden: "))
		return
	case errs.NotFound:
		status, msg = http.StatusNotFound, messageOf(err)
		if what := recordOf(r.URL.Path); what != "" {
			msg = "There is no such " + what + ". Scan or type it again."
		}
	case errs.Invalid, errs.Conflict:
		status, msg = http.StatusBadRequest, messageOf(err)
	case errs.Unavailable:
		status, msg = http.StatusServiceUnavailable, "The database is unavailable. Try again in a moment."
	}
	// A request its client gave up on is no failure of the service; one
	// that ran out of its time (the context's cause says which) is.
	gone := errors.Is(err, context.Canceled) && errors.Is(context.Cause(r.Context()), context.Canceled)
	if status >= 500 && !gone {
		h.log.Error("console request failed", zap.String("path", r.URL.Path), zap.Error(err))
	}
	h.errorPage(w, r, status, msg)
}

// errorPage shows msg inside the console's frame: with the menu and the
// search for a signed-in user (the search has the focus, for the next
// scan), with the way to sign in for anybody else.
func (h *Handler) errorPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	user, _ := r.Context().Value(userKey{}).(*application.ConsoleUser)
	if user == nil {
		// Pages the mux does not know are answered before any session is
		// read.
		user, _ = h.user(w, r)
	}
	v := view{Title: titleOf(status), User: user, Alert: msg, Data: status}
	if user != nil {
		v.CSRF = user.CSRFToken
	}
	t := h.pages["error"]
	var buf bytes.Buffer
	if t == nil || t.ExecuteTemplate(&buf, "layout.html", v) != nil {
		http.Error(w, msg, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// recordOf names what a page's path shows, for a page whose record does
// not exist ("" for a page of no record).
func recordOf(path string) string {
	for prefix, what := range map[string]string{
		"/console/products/": "product", "/console/bins/": "bin location", "/console/orders/": "order",
		"/console/warehouses/": "warehouse", "/console/webhooks/": "webhook", "/console/lots/": "lot",
	} {
		if strings.HasPrefix(path, prefix) {
			return what
		}
	}
	return ""
}

// titleOf is an error page's heading.
func titleOf(status int) string {
	switch status {
	case http.StatusNotFound:
		return "Not found"
	case http.StatusForbidden:
		return "Not allowed"
	case http.StatusBadRequest:
		return "That did not work"
	case http.StatusServiceUnavailable:
		return "Try again in a moment"
	}
	return "Something went wrong"
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request) {
	h.fail(w, r, errs.NotFoundf("There is no console page at %s.", r.URL.Path))
}

// messageOf is an error's message for people: the service's own message,
// with the offending properties when it names them.
func messageOf(err error) string {
	e, ok := errs.As(err)
	if !ok {
		return err.Error()
	}
	if len(e.Fields) > 0 {
		parts := make([]string, len(e.Fields))
		for i, f := range e.Fields {
			parts[i] = f.Property + " " + f.Message
		}
		return strings.Join(parts, "; ")
	}
	return e.Message
}

// pathID reads a positive id from the path; anything else names nothing.
func pathID(r *http.Request, wildcard, what string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(wildcard), 10, 64)
	if err != nil || !limit.ValidID(id) {
		return 0, errs.NotFoundf("There is no such %s.", what)
	}
	return id, nil
}

const flashCookie = "inventory_console_notice"

// flash carries a notice to the page a successful form redirects to. The
// notice is signed: a page shows as its own only what the service wrote,
// not a cookie another site planted (a sibling subdomain may set cookies
// for this host, and over http anyone on the path may).
func (h *Handler) flash(w http.ResponseWriter, r *http.Request, msg string) {
	value := base64.RawURLEncoding.EncodeToString([]byte(msg))
	http.SetCookie(w, h.cookie(r, flashCookie, value+"."+h.noticeMAC(value), 60))
}

func (h *Handler) noticeMAC(value string) string {
	m := hmac.New(sha256.New, h.formKey)
	m.Write([]byte("console notice\x00" + value))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// takeFlash is the notice the previous answer left, once; a notice the
// service did not sign is none.
func (h *Handler) takeFlash(w http.ResponseWriter, r *http.Request) string {
	c, ok := h.readCookie(r, flashCookie)
	if !ok {
		return ""
	}
	http.SetCookie(w, h.cookie(r, flashCookie, "", -1))
	value, mac, ok := strings.Cut(c, ".")
	if !ok || !hmac.Equal([]byte(mac), []byte(h.noticeMAC(value))) {
		return ""
	}
	msg, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil {
		return ""
	}
	return string(msg)
}

// redirect ends a successful form with a notice on the page it returns to.
func (h *Handler) redirect(w http.ResponseWriter, r *http.Request, to, notice string) {
	if notice != "" {
		h.flash(w, r, notice)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}
