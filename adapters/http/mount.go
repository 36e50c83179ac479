package http

import (
	"net/http"
	"strings"
)

// Mount serves another adapter (the console) under prefix, inside this
// handler's request id, recovery, metrics and access log.
func (h *Handler) Mount(prefix string, handler http.Handler) {
	h.mux.Handle(prefix, handler)
	if trimmed := strings.TrimSuffix(prefix, "/"); trimmed != prefix && trimmed != "" {
		h.mux.Handle("GET "+trimmed, http.RedirectHandler(prefix, http.StatusMovedPermanently))
	}
}

// IsHTTPS tells whether the client reached the service over https: over
// TLS, behind a proxy that says so, or under an https base URL.
func (h *Handler) IsHTTPS(r *http.Request) bool {
	if r.TLS != nil || strings.HasPrefix(strings.ToLower(h.cfg.BaseURL), "https://") {
		return true
	}
	return strings.EqualFold(strings.TrimSpace(strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")[0]), "https")
}
