package console

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/session"
)

const (
	sessionCookie = "inventory_console_session"
	// signInCookie holds the sign-in form's CSRF token until a session
	// exists (the double-submit pattern, with a token the server signs:
	// see signInToken).
	signInCookie = "inventory_console_signin"
	// hostPrefix names the cookies over https. A browser keeps a cookie of
	// that name only if it is Secure, for Path=/ and without Domain, so a
	// sibling subdomain or a plain-http page cannot plant one.
	hostPrefix = "__Host-"
	// maxSignInBytes bounds the sign-in form: a token, a name, a key and
	// the page to return to fit many times over.
	maxSignInBytes = 16 << 10
)

// UnauthenticatedBodies names the one form read before any credentials are
// checked, the sign-in, so that the server reads its body under a short
// deadline and outside the in-flight limit.
func (h *Handler) UnauthenticatedBodies() map[string]int64 {
	return map[string]int64{"POST " + Prefix + "signin": maxSignInBytes}
}

type userKey struct{}

// may asks the permission table whether u may do a, as the use cases will.
func may(u *application.ConsoleUser, a access.Action) bool { return access.Allows(u.Role, a) }

// formActions are what the console's forms do beside signing out.
var formActions = []access.Action{access.WriteStock, access.ShipOrders, access.ManageOrders, access.ManageWarehouses}

// canAct tells whether u may do everything the console's forms do, which
// decides whether its pages offer them.
func canAct(u *application.ConsoleUser) bool {
	for _, a := range formActions {
		if !may(u, a) {
			return false
		}
	}
	return true
}

// forbidden answers a page or post the user may not see or make, or a
// post without the form's token: inside the console's frame, with its
// menu, so that the worker can go on from there.
func (h *Handler) forbidden(w http.ResponseWriter, r *http.Request, msg string) {
	h.errorPage(w, r, http.StatusForbidden, "Not allowed: "+msg+".")
}

// cookieName is what the cookie name is called in the request: with the
// __Host- prefix over https, plain over http, where no prefix binds.
func (h *Handler) cookieName(r *http.Request, name string) string {
	if h.cfg.HTTPS(r) {
		return hostPrefix + name
	}
	return name
}

func (h *Handler) cookie(r *http.Request, name, value string, maxAge int) *http.Cookie {
	c := &http.Cookie{Name: h.cookieName(r, name), Value: value, Path: "/console/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode}
	if h.cfg.HTTPS(r) {
		// What the prefix demands.
		c.Path, c.Secure = "/", true
	}
	return c
}

// readCookie is the value of the cookie name for the request; over https
// only the prefixed cookie counts, as a plain one may have been planted.
func (h *Handler) readCookie(r *http.Request, name string) (string, bool) {
	c, err := r.Cookie(h.cookieName(r, name))
	if err != nil {
		return "", false
	}
	return c.Value, true
}

// signInToken makes the sign-in form's token: a random nonce and the
// server's HMAC of it. The browser returns it as cookie and as form field;
// a token the server did not issue fails the HMAC, so a cookie planted
// together with a matching form field by another site does not sign
// anybody in.
func (h *Handler) signInToken() string {
	nonce := rand.Text()
	return nonce + "." + h.signInMAC(nonce)
}

func (h *Handler) signInMAC(nonce string) string {
	m := hmac.New(sha256.New, h.formKey)
	m.Write([]byte("console sign-in form\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// issuedSignInToken tells whether token was made by signInToken.
func (h *Handler) issuedSignInToken(token string) bool {
	nonce, mac, ok := strings.Cut(token, ".")
	return ok && nonce != "" && hmac.Equal([]byte(mac), []byte(h.signInMAC(nonce)))
}

// crossSite tells whether the browser says the request comes from another
// site or a sibling subdomain (Fetch Metadata); a browser that says nothing
// is left to the token.
func crossSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return true
	}
	return false
}

// user is the signed-in user of the request, nil when there is none. The
// cookie is sent again with every answer, so that the browser keeps it as
// long as the session is used; the database decides when it ends.
func (h *Handler) user(w http.ResponseWriter, r *http.Request) (*application.ConsoleUser, error) {
	token, ok := h.readCookie(r, sessionCookie)
	if !ok {
		return nil, nil
	}
	u, err := h.app.SessionUser(r.Context(), token)
	if u != nil {
		http.SetCookie(w, h.cookie(r, sessionCookie, token, int(session.IdleTimeout.Seconds())))
	}
	return u, err
}

// page registers a page for signed-in users; others go to the sign-in.
func (h *Handler) page(pattern string, fn func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error) {
	h.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		u, err := h.user(w, r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if u == nil {
			next := r.URL.Path
			if r.URL.RawQuery != "" {
				next += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, "/console/signin?next="+url.QueryEscape(next), http.StatusSeeOther)
			return
		}
		r = h.readsAfterWrites(r.WithContext(signedIn(r.Context(), u)))
		if err := fn(w, r, u); err != nil {
			h.fail(w, r, err)
		}
	})
}

// signedIn makes u the user of the page and the caller of the use cases.
func signedIn(ctx context.Context, u *application.ConsoleUser) context.Context {
	ctx = context.WithValue(ctx, userKey{}, u)
	return application.WithPrincipal(ctx, application.Principal{Name: u.Name, Role: u.Role})
}

// action registers a form post that does need: it needs a session, a
// role that the permission table lets do need and the session's CSRF
// token, or it is refused with 403 before anything runs (post).
func (h *Handler) action(pattern string, need access.Action, fn func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error) {
	h.post(pattern, need, fn)
}

// form registers a form post that any signed-in user may make (signing
// out): it needs a session and the session's CSRF token, or it is refused
// with 403 before anything runs (post).
func (h *Handler) form(pattern string, fn func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error) {
	h.post(pattern, "", fn)
}

type signInData struct {
	Name, Next, Error string
	Token             string
}

func (h *Handler) authRoutes() {
	h.mux.HandleFunc("GET /console/signin", func(w http.ResponseWriter, r *http.Request) {
		if u, err := h.user(w, r); err == nil && u != nil {
			http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
			return
		}
		h.signInPage(w, r, http.StatusOK, signInData{Next: r.URL.Query().Get("next")})
	})
	h.mux.HandleFunc("POST /console/signin", func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxSignInBytes)
		if err := r.ParseForm(); err != nil {
			h.forbidden(w, r, "the form could not be read")
			return
		}
		kept, ok := h.readCookie(r, signInCookie)
		sent := r.PostForm.Get("csrf")
		if !ok || crossSite(r) || !h.issuedSignInToken(kept) || subtle.ConstantTimeCompare([]byte(kept), []byte(sent)) != 1 {
			h.forbidden(w, r, "the sign-in form carries no valid security token; reload the page and try again")
			return
		}
		d := signInData{Name: strings.TrimSpace(r.PostForm.Get("name")), Next: r.PostForm.Get("next")}
		if name, err := code.CheckParameters(r.PostForm, nil); err != nil {
			d.Error = fmt.Sprintf("The field %s %s.", name, err)
			h.signInPage(w, r, http.StatusBadRequest, d)
			return
		}
		key := r.PostForm.Get("key")
		if d.Name == "" || key == "" {
			d.Error = "Enter your user name and your API key."
			h.signInPage(w, r, http.StatusBadRequest, d)
			return
		}
		if h.cfg.Guard != nil {
			if wait := h.cfg.Guard.SignInLocked(r, d.Name); wait > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
				d.Error = fmt.Sprintf("Too many failed sign-ins. Try again in %d seconds.", int(math.Ceil(wait.Seconds())))
				h.signInPage(w, r, http.StatusTooManyRequests, d)
				return
			}
		}
		token, err := h.app.SignIn(r.Context(), d.Name, key)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if token == "" {
			if h.cfg.Guard != nil {
				h.cfg.Guard.SignInFailed(r, d.Name)
			}
			d.Error = "This user name and key do not match an enabled user."
			h.signInPage(w, r, http.StatusUnauthorized, d)
			return
		}
		// The browser keeps the cookie for the whole idle period; the
		// database decides when the session really ends.
		http.SetCookie(w, h.cookie(r, sessionCookie, token, int(session.IdleTimeout.Seconds())))
		http.SetCookie(w, h.cookie(r, signInCookie, "", -1))
		http.Redirect(w, r, safeNext(d.Next), http.StatusSeeOther)
	})
	h.form("POST /console/signout", func(w http.ResponseWriter, r *http.Request, _ *application.ConsoleUser) error {
		if token, ok := h.readCookie(r, sessionCookie); ok {
			if err := h.app.SignOut(r.Context(), token); err != nil {
				return err
			}
		}
		http.SetCookie(w, h.cookie(r, sessionCookie, "", -1))
		http.SetCookie(w, h.cookie(r, positionCookie, "", -1))
		h.redirect(w, r, "/console/signin", "You are signed out.")
		return nil
	})
}

func (h *Handler) signInPage(w http.ResponseWriter, r *http.Request, status int, d signInData) {
	token, ok := h.readCookie(r, signInCookie)
	if !ok || !h.issuedSignInToken(token) {
		token = h.signInToken()
		http.SetCookie(w, h.cookie(r, signInCookie, token, 3600))
	}
	d.Token = token
	h.render(w, r, status, "signin", view{Title: "Sign in", Data: d})
}

// safeNext keeps a redirect after sign-in inside the console.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/console/") || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") {
		return "/console/search"
	}
	return next
}
