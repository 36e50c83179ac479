package http

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
)

// Defaults of Config's limits.
const (
	DefaultRequestTimeout = 60 * time.Second
	DefaultMaxInFlight    = 256
	// MaxHeaderBytes bounds the request headers; the server answers 431
	// beyond it.
	MaxHeaderBytes = 64 << 10
	// maxID is the largest id (limit.MaxID).
	maxID = limit.MaxID
)

// errRequestTimedOut is the cause of a request context that ran out of
// INVENTORY_REQUEST_TIMEOUT.
var errRequestTimedOut = errors.New("request timed out")

var (
	errHeadersTooLarge = &protocolError{status: http.StatusRequestHeaderFieldsTooLarge, message: "request headers are larger than 64 KiB"}
	errTimedOut        = &protocolError{status: http.StatusServiceUnavailable, message: "request timed out"}
	errBusy            = &protocolError{status: http.StatusServiceUnavailable, message: "too many requests in flight; retry in a second"}
)

// headerBytes is the size of the request line and headers as sent, near
// enough: name, ": ", value and CRLF per line.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4 + len("Host: \r\n") + len(r.Host)
	for name, values := range r.Header {
		for _, v := range values {
			n += len(name) + len(v) + 4
		}
	}
	return n
}

// timedOut tells whether the request's own deadline ended it.
func timedOut(r *http.Request) bool {
	return errors.Is(context.Cause(r.Context()), errRequestTimedOut)
}

// unlimited are the routes that stay answerable under load: probes and
// metrics say how the service is doing, and are cheap, as are the API's
// documents, which are bytes in memory.
var unlimited = map[string]bool{"GET /healthz": true, "GET /readyz": true, "GET /metrics": true,
	"GET /api/openapi.json": true, "GET /api/docs": true, "GET /api/docs/redoc.standalone.js": true}

// admit takes a slot of the in-flight limit; false means the service is
// full, and the caller answers 503 at once instead of queueing.
func (h *Handler) admit() (release func(), ok bool) {
	select {
	case h.inFlight <- struct{}{}:
		return func() { <-h.inFlight }, true
	default:
		return nil, false
	}
}

// knownMethods are the metric label values of a method; any other is OTHER,
// so that a client cannot create label values at will.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

func methodLabel(m string) string {
	if knownMethods[m] {
		return m
	}
	return "OTHER"
}

// ParseTrustedProxies reads INVENTORY_TRUSTED_PROXIES: comma-separated
// CIDRs (a bare address is a /32 or /128).
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			addr, err := netip.ParseAddr(part)
			if err != nil {
				return nil, fmt.Errorf("%q is neither a CIDR nor an address", part)
			}
			out = append(out, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR: %v", part, err)
		}
		if p.Addr().Is4In6() {
			// Peers are compared unmapped, so an IPv4-mapped prefix
			// becomes the IPv4 prefix it means.
			if p.Bits() < 96 {
				return nil, fmt.Errorf("%q mixes IPv4-mapped and IPv6 addresses", part)
			}
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// peerAddr is the address of the TCP peer, without the port.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err == nil {
		return ap.Addr().Unmap(), true
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	return a.Unmap(), err == nil
}

// fromTrustedProxy tells whether the peer is one of the trusted proxies,
// whose X-Forwarded-* headers the service believes.
func (h *Handler) fromTrustedProxy(r *http.Request) bool {
	if len(h.cfg.TrustedProxies) == 0 {
		return false
	}
	a, ok := peerAddr(r)
	if !ok {
		return false
	}
	for _, p := range h.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ClientAddress is the address of the client that sent the request: the
// TCP peer, or, when the peer is a trusted proxy, the nearest address in
// X-Forwarded-For that is not itself a trusted proxy. It is what logs and
// the lockout of failed attempts key on.
func (h *Handler) ClientAddress(r *http.Request) string {
	peer, ok := peerAddr(r)
	if !ok {
		return r.RemoteAddr
	}
	if !h.fromTrustedProxy(r) {
		return peer.String()
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	// Walk from the nearest hop back: each trusted proxy vouches for the
	// one before it; the first address no trusted proxy owns is the client.
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		client = a.Unmap()
		if !h.trusted(client) {
			break
		}
	}
	return client.String()
}

func (h *Handler) trusted(a netip.Addr) bool {
	for _, p := range h.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedHost is X-Forwarded-Host when a trusted proxy sent it and it is
// a plausible host[:port].
func forwardedHost(r *http.Request) string {
	v := strings.TrimSpace(strings.Split(r.Header.Get("X-Forwarded-Host"), ",")[0])
	if v == "" || strings.ContainsAny(v, "/\\@?# ") {
		return ""
	}
	if u, err := url.Parse("http://" + v); err != nil || u.Host != v {
		return ""
	}
	return v
}

// parseQuery reads the query string; one that does not parse (a bad %
// escape, a `;`, more than 10000 parameters) is refused rather than read in
// part, which would answer a list without some of its filters. The refusal
// names the parameter at fault when one is.
func parseQuery(r *http.Request) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err == nil {
		return q, nil
	}
	for part := range strings.SplitSeq(r.URL.RawQuery, "&") {
		rawName, rawValue, _ := strings.Cut(part, "=")
		name, nameErr := url.QueryUnescape(rawName)
		_, valueErr := url.QueryUnescape(rawValue)
		switch {
		case nameErr != nil || strings.Contains(rawName, ";"):
			return nil, errs.Invalidf("the query string does not parse: the parameter name %q: %v", rawName, err)
		case valueErr != nil || strings.Contains(rawValue, ";"):
			return nil, errs.InvalidFields(errs.FieldError{Property: name, Message: "the query string does not parse: " + err.Error()})
		}
	}
	return nil, errs.Invalidf("the query string does not parse: %v", err)
}
