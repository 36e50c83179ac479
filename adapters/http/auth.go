package http

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"strings"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/user"
)

var basicChallenge = `Basic realm="` + user.Realm + `"`

// requestInfo is filled in while a request is served, for the access log,
// which holds the request as it was before authentication.
type requestInfo struct{ user string }

func infoOf(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(requestInfoKey).(*requestInfo)
	return info
}

// principalOf is the authenticated caller of the request; nil before
// authentication.
func principalOf(ctx context.Context) *application.Principal {
	if p, ok := application.PrincipalFrom(ctx); ok {
		return &p
	}
	return nil
}

// authenticate checks the credentials of the request, Basic or Digest, and
// returns the request carrying the principal. A request without credentials
// is not an attempt; a failed one counts against its client address and its
// user name, and when the address has failed too often, or the name has and
// this address took part, even right credentials get 429 (lockout.Attempts).
// A stale Digest nonce and a 429 are no failures.
func (h *Handler) authenticate(r *http.Request) (*http.Request, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return r, errUnauthorized
	}
	scheme, _, _ := strings.Cut(header, " ")
	var name string
	var digest map[string]string
	if strings.EqualFold(scheme, "Digest") {
		digest, _ = parseDigest(header)
		name = digest["username"]
	} else if n, _, ok := basicCredentials(r); ok {
		name = n
	}
	addr := h.ClientAddress(r)
	now := h.cfg.now()
	if wait := h.attempts.lockedFor(now, addr, name); wait > 0 {
		return r, &protocolError{status: http.StatusTooManyRequests, retryAfter: int(math.Ceil(wait.Seconds())),
			message: "too many failed authentication attempts, try again later"}
	}
	var (
		p      *application.Principal
		reason string
		err    error
		stale  bool
	)
	if strings.EqualFold(scheme, "Digest") {
		p, stale, reason, err = h.authenticateDigest(r, digest)
	} else {
		p, reason, err = h.authenticateBasic(r)
	}
	if err != nil {
		return r, err
	}
	if p == nil {
		if !stale {
			h.attempts.fail(now, addr, name)
			// Never the key or the header, nor a name no user has.
			h.log.Warn("authentication failed", zap.String("request_id", requestID(r.Context())),
				h.loggedName(r, name), zap.String("client", addr), zap.String("reason", reason))
		}
		if stale {
			return r, errStale
		}
		return r, errUnauthorized
	}
	if info := infoOf(r.Context()); info != nil {
		info.user = p.Name
	}
	// The use cases find their caller in the context.
	ctx := application.WithPrincipal(r.Context(), *p)
	ctx = context.WithValue(ctx, userKey, p.Name)
	return r.WithContext(ctx), nil
}

// loggedName is what the log may hold of a user name a client sent: the
// name of a user that exists, or else the first 8 hex digits of its SHA-256
// (field user_sha256), since people type keys into name fields and a log is
// read by many.
func (h *Handler) loggedName(r *http.Request, name string) zap.Field {
	if ok, err := h.app.UserExists(r.Context(), name); err == nil && ok {
		return zap.String("user", name)
	}
	sum := sha256.Sum256([]byte(name))
	return zap.String("user_sha256", hex.EncodeToString(sum[:4]))
}

func (h *Handler) authenticateBasic(r *http.Request) (*application.Principal, string, error) {
	name, key, ok := basicCredentials(r)
	if !ok {
		return nil, "malformed credentials", nil
	}
	p, err := h.app.Authenticate(r.Context(), name, key)
	return p, "wrong user, key or disabled user", err
}

// authenticateDigest checks a Digest authorization: qop=auth, an offered
// algorithm, our realm, and the uri of this very request.
func (h *Handler) authenticateDigest(r *http.Request, params map[string]string) (p *application.Principal, stale bool, reason string, err error) {
	if params == nil {
		return nil, false, "malformed Digest credentials", nil
	}
	algName := params["algorithm"]
	if algName == "" {
		algName = string(user.DigestMD5) // RFC 7616: MD5 when absent
	}
	alg, ok := user.ParseDigestAlgorithm(algName)
	switch {
	case !ok:
		return nil, false, "Digest algorithm not offered", nil
	case params["qop"] != "auth":
		return nil, false, "Digest qop other than auth", nil
	case params["realm"] != user.Realm:
		return nil, false, "Digest realm of another service", nil
	case params["userhash"] != "" && !strings.EqualFold(params["userhash"], "false"):
		return nil, false, "Digest userhash is not supported", nil
	case params["uri"] != r.RequestURI:
		return nil, false, "Digest uri is not the request's", nil
	case !isHex(params["nc"], 8), !visibleASCII(params["cnonce"], 256), !visibleASCII(params["nonce"], 128):
		return nil, false, "malformed Digest credentials", nil
	}
	want := 64
	if alg == user.DigestMD5 {
		want = 32
	}
	if !isHex(params["response"], want) {
		return nil, false, "malformed Digest response", nil
	}
	out, err := h.app.AuthenticateDigest(r.Context(), params["username"], user.DigestRequest{
		Algorithm: alg, Method: r.Method, URI: params["uri"], Nonce: params["nonce"],
		NC: params["nc"], CNonce: params["cnonce"], Response: params["response"],
	})
	switch {
	case err != nil:
		return nil, false, "", err
	case out.Replayed:
		return nil, false, "Digest nonce count replayed", nil
	}
	return out.Principal, out.Stale, "wrong user, key or disabled user", nil
}

// challenge asks for credentials: Basic first, then Digest per algorithm,
// each a header field of its own (RFC 7616 section 3.7).
func (h *Handler) challenge(w http.ResponseWriter, r *http.Request, stale bool) {
	w.Header().Add("WWW-Authenticate", basicChallenge)
	if h.app == nil { // a handler without use cases, in tests of the HTTP layer alone
		return
	}
	nonce, err := h.app.DigestNonce(r.Context())
	if err != nil {
		h.log.Warn("no Digest challenge: cannot issue a nonce", zap.String("request_id", requestID(r.Context())), zap.Error(err))
		return
	}
	suffix := ""
	if stale {
		suffix = ", stale=true"
	}
	for _, alg := range user.DigestAlgorithms {
		w.Header().Add("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", qop="auth", algorithm=%s, nonce="%s"%s`,
			user.Realm, alg, nonce, suffix))
	}
}

// authorize lets the principal of r do what the route does, as the
// permission table has it. It runs before the handler reads the body, so
// that a caller who may not do the action costs no parsing.
func authorize(r *http.Request, action access.Action) error {
	p := principalOf(r.Context())
	if p != nil && access.Allows(p.Role, action) {
		return nil
	}
	need, _ := access.LeastRole(action)
	who := "nobody"
	if p != nil {
		article := "a"
		if role := string(p.Role); role != "" && strings.IndexByte("aeiou", role[0]) >= 0 {
			article = "an"
		}
		who = fmt.Sprintf("user %q is %s %s", p.Name, article, p.Role)
	}
	return &protocolError{status: http.StatusForbidden,
		message: fmt.Sprintf("forbidden: %s %s needs the %s role, %s", r.Method, r.URL.Path, need, who)}
}
