package http

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// The API reference at /api/docs is Redoc's standalone bundle, vendored in
// apidocs/, rendering /api/openapi.json: the page loads nothing from
// anywhere but this service.
var (
	//go:embed apidocs/index.html
	apiDocsPage []byte
	//go:embed apidocs/redoc.standalone.js
	redocBundle []byte
)

// apiDocsPolicy lets the page load only from this service. Redoc styles
// its elements with inline style sheets (styled-components) and runs its
// search index in a worker made from a blob: URL.
const apiDocsPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; worker-src blob:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// The bundle's tags are those of the bytes as sent: plain and gzipped are
// two representations and must not share a strong tag.
var (
	redocTag     = contentTag(redocBundle, "")
	redocGzipTag = contentTag(redocBundle, "-gzip")
	// The gzipped bundle is about a third of its size; it is made once, on
	// the first request that accepts it.
	redocGzip = sync.OnceValue(func() []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = zw.Write(redocBundle)
		_ = zw.Close()
		return b.Bytes()
	})
)

func contentTag(content []byte, suffix string) string {
	sum := sha256.Sum256(content)
	return `"` + hex.EncodeToString(sum[:16]) + suffix + `"`
}

func serveAPIDocs(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", apiDocsPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	_, _ = w.Write(apiDocsPage)
}

func serveRedocBundle(w http.ResponseWriter, r *http.Request) {
	body, tag, encoding := redocBundle, redocTag, ""
	if acceptsGzip(r) {
		body, tag, encoding = redocGzip(), redocGzipTag, "gzip"
	}
	h := w.Header()
	h.Set("Vary", "Accept-Encoding")
	// An hour, as the console's static files: a new bundle reaches browsers
	// within the hour after an upgrade, and the tag makes checking cheap.
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("ETag", tag)
	if tagMatches(r.Header.Get("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(body)
}

// acceptsGzip tells whether Accept-Encoding names gzip with a q above 0.
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, coding := range strings.Split(v, ",") {
			params := strings.Split(coding, ";")
			if !strings.EqualFold(strings.TrimSpace(params[0]), "gzip") {
				continue
			}
			q := 1.0
			for _, p := range params[1:] {
				if k, v, _ := strings.Cut(strings.TrimSpace(p), "="); strings.EqualFold(k, "q") {
					q, _ = strconv.ParseFloat(v, 64) // unreadable: 0, not accepted
				}
			}
			return q > 0
		}
	}
	return false
}

// tagMatches tells whether an If-None-Match header names tag (weak
// comparison, as RFC 9110 asks for If-None-Match).
func tagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}
