package http

import (
	"io"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"
)

// BodyReceiver is what a mounted adapter implements to read the bodies of
// its requests as the API reads its own: outside the in-flight limit and
// the request's deadline, under the idle and upload deadlines. Mount hands
// it the function that does so: it calls read with the request's body,
// then takes a slot for the request; an error it returns answers with the
// HTTP status its StatusCode method tells, when it has one.
type BodyReceiver interface {
	ReceiveBodiesWith(receive func(w http.ResponseWriter, r *http.Request, read func(body io.Reader) error) error)
}

// Mount serves another adapter (the console) under prefix, inside this
// handler's request id, recovery, metrics, access log and limits. The
// routes it names as UnauthenticatedBodies have their bodies read before
// they take a slot of the in-flight limit; a BodyReceiver reads its other
// bodies as the API does.
func (h *Handler) Mount(prefix string, handler http.Handler) {
	h.mux.Handle(prefix, handler)
	if u, ok := handler.(UnauthenticatedBodies); ok {
		for route, max := range u.UnauthenticatedBodies() {
			h.bodyFirst[route] = max
		}
	}
	if b, ok := handler.(BodyReceiver); ok {
		b.ReceiveBodiesWith(h.receive)
	}
	if trimmed := strings.TrimSuffix(prefix, "/"); trimmed != prefix && trimmed != "" {
		h.mux.Handle("GET "+trimmed, http.RedirectHandler(prefix, http.StatusMovedPermanently))
	}
}

// IsHTTPS tells whether the client reached the service over https: over
// TLS, behind a trusted proxy that says so, or under an https base URL.
func (h *Handler) IsHTTPS(r *http.Request) bool {
	if r.TLS != nil || strings.HasPrefix(strings.ToLower(h.cfg.BaseURL), "https://") {
		return true
	}
	return h.fromTrustedProxy(r) &&
		strings.EqualFold(strings.TrimSpace(strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")[0]), "https")
}

// SignInLocked tells how long sign-ins as name from this client must wait
// (0: none), under the API's failed-attempt limits and with the same
// counts, so that another adapter's sign-in form is no way around them.
func (h *Handler) SignInLocked(r *http.Request, name string) time.Duration {
	return h.attempts.lockedFor(h.cfg.now(), h.ClientAddress(r), name)
}

// SignInFailed counts a failed sign-in like a failed API authentication,
// and logs it the same way (never the key).
func (h *Handler) SignInFailed(r *http.Request, name string) {
	h.attempts.fail(h.cfg.now(), h.ClientAddress(r), name)
	h.log.Warn("authentication failed", zap.String("request_id", requestID(r.Context())),
		h.loggedName(r, name), zap.String("client", h.ClientAddress(r)), zap.String("reason", "console sign-in: wrong user, key or disabled user"))
}
