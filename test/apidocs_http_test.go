package test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestAPIReferenceIsServedWithoutCredentials checks /api/docs and its
// viewer over HTTP: no credentials, a policy that lets the page load from
// the service alone, and a bundle with tags that make a second load cheap.
func TestAPIReferenceIsServedWithoutCredentials(t *testing.T) {
	env := apitest.New(t, testdb.SQLite(t))
	get := func(path string, header ...string) *apitest.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		return env.DoRaw(t, req)
	}

	t.Run("the page loads only from the service", func(t *testing.T) {
		res := get("/api/docs")
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET /api/docs: %d %s", res.Status, res.Header.Get("Content-Type"))
		}
		for _, ref := range []string{`spec-url="openapi.json"`, `src="docs/redoc.standalone.js"`} {
			if !bytes.Contains(res.Body, []byte(ref)) {
				t.Errorf("the page lacks %s:\n%s", ref, res.Body)
			}
		}
		policy := res.Header.Get("Content-Security-Policy")
		directives := map[string][]string{}
		for _, d := range strings.Split(policy, ";") {
			if fields := strings.Fields(d); len(fields) > 0 {
				directives[fields[0]] = fields[1:]
			}
		}
		if got := strings.Join(directives["default-src"], " "); got != "'none'" {
			t.Errorf("default-src %q, want 'none' (policy %q)", got, policy)
		}
		// Beyond the service itself only what the page makes in place:
		// inline styles, data: images, the search worker from a blob:.
		allowed := map[string]map[string]bool{
			"style-src":  {"'unsafe-inline'": true},
			"img-src":    {"data:": true},
			"worker-src": {"blob:": true},
		}
		for name, sources := range directives {
			for _, s := range sources {
				if s != "'self'" && s != "'none'" && !allowed[name][s] {
					t.Errorf("%s allows %s (policy %q)", name, s, policy)
				}
			}
		}
	})

	root, _ := moduleRoot(t)
	bundle, err := os.ReadFile(filepath.Join(root, "adapters", "http", "apidocs", "redoc.standalone.js"))
	if err != nil {
		t.Fatal(err)
	}

	var plainTag, gzipTag string
	t.Run("the bundle, plain and gzipped", func(t *testing.T) {
		res := get("/api/docs/redoc.standalone.js", "Accept-Encoding", "identity")
		if res.Status != http.StatusOK || res.Header.Get("Content-Encoding") != "" || !bytes.Equal(res.Body, bundle) {
			t.Fatalf("plain bundle: %d, Content-Encoding %q, %d bytes of %d", res.Status, res.Header.Get("Content-Encoding"), len(res.Body), len(bundle))
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
			t.Errorf("Content-Type %q", ct)
		}
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=") {
			t.Errorf("Cache-Control %q", cc)
		}
		plainTag = res.Header.Get("ETag")

		res = get("/api/docs/redoc.standalone.js", "Accept-Encoding", "br, gzip")
		if res.Status != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("gzipped bundle: %d, Content-Encoding %q", res.Status, res.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(res.Body))
		if err != nil {
			t.Fatal(err)
		}
		if unzipped, err := io.ReadAll(zr); err != nil || !bytes.Equal(unzipped, bundle) {
			t.Fatalf("the gzipped bundle is not the bundle: %v", err)
		}
		if len(res.Body) > len(bundle)/2 {
			t.Errorf("gzipped %d bytes of %d", len(res.Body), len(bundle))
		}
		gzipTag = res.Header.Get("ETag")
		if plainTag == "" || gzipTag == "" || plainTag == gzipTag {
			t.Errorf("tags plain %q, gzipped %q: two representations, two tags", plainTag, gzipTag)
		}

		if res := get("/api/docs/redoc.standalone.js", "Accept-Encoding", "gzip;q=0"); res.Header.Get("Content-Encoding") != "" {
			t.Errorf("gzip;q=0 got Content-Encoding %q", res.Header.Get("Content-Encoding"))
		}
	})

	t.Run("a browser that has the bundle gets 304", func(t *testing.T) {
		for _, c := range []struct {
			encoding, tag string
			want          int
		}{
			{"identity", plainTag, http.StatusNotModified},
			{"gzip", gzipTag, http.StatusNotModified},
			{"gzip", "W/" + gzipTag, http.StatusNotModified},
			{"gzip", `"other", ` + gzipTag, http.StatusNotModified},
			{"gzip", plainTag, http.StatusOK},
			{"identity", `"other"`, http.StatusOK},
		} {
			res := get("/api/docs/redoc.standalone.js", "Accept-Encoding", c.encoding, "If-None-Match", c.tag)
			if res.Status != c.want {
				t.Errorf("Accept-Encoding %s, If-None-Match %s: %d, want %d", c.encoding, c.tag, res.Status, c.want)
			}
			if c.want == http.StatusNotModified && (len(res.Body) != 0 || res.Header.Get("ETag") == "") {
				t.Errorf("304 with %d bytes, ETag %q", len(res.Body), res.Header.Get("ETag"))
			}
		}
	})

	t.Run("another method is a 405, also without credentials", func(t *testing.T) {
		for _, path := range []string{"/api/docs", "/api/docs/redoc.standalone.js"} {
			req, _ := http.NewRequest(http.MethodPost, path, nil)
			if res := env.DoRaw(t, req); res.Status != http.StatusMethodNotAllowed {
				t.Errorf("POST %s: %s", path, res)
			}
		}
	})
}
