package http

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/user"
)

func newRequest(method, path string) *http.Request { return httptest.NewRequest(method, path, nil) }

func basic(userinfo string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(userinfo))
}

// parseBasic reads the credentials of a request that sends header.
func parseBasic(header string) (name, key string, ok bool) {
	r := newRequest(http.MethodGet, "/api/warehouses")
	r.Header.Set("Authorization", header)
	return basicCredentials(r)
}

func TestBasicCredentialsParse(t *testing.T) {
	for header, want := range map[string][2]string{
		basic("admin:secret"):         {"admin", "secret"},
		basic("admin:with:colon"):     {"admin", "with:colon"},
		"basic " + "YWRtaW46c2VjcmV0": {"admin", "secret"},
		basic("admin:"):               {"admin", ""},
		basic("\x00:\x00"):            {"\x00", "\x00"}, // parsed, refused by user.ValidName
	} {
		name, key, ok := parseBasic(header)
		if !ok || name != want[0] || key != want[1] {
			t.Errorf("%q: %q %q %v", header, name, key, ok)
		}
	}
	for _, header := range []string{"", "Basic", "Basic !!!", basic("no-colon"), basic(":key"), "Bearer abc",
		"Basic " + strings.Repeat("A", maxCredentials), basic("admin:" + strings.Repeat("k", maxCredentials))} {
		if _, _, ok := parseBasic(header); ok {
			t.Errorf("%q parses", header)
		}
	}
	// The header of the NUL finding: "\x00:\x00" is no user name.
	if name, _, _ := parseBasic("Basic ADoA"); user.ValidName(name) {
		t.Error("a NUL is never a user name")
	}
}

func TestDigestCredentialsParse(t *testing.T) {
	p, ok := parseDigest(`Digest username="shop", realm="Inventory REST-API", nonce="n-1", uri="/api/a?b=c,d",` +
		` algorithm=SHA-256, qop=auth, nc=00000001, cnonce="c\"q", response="abc"`)
	if !ok {
		t.Fatal("a well-formed header parses")
	}
	want := map[string]string{"username": "shop", "realm": "Inventory REST-API", "nonce": "n-1", "uri": "/api/a?b=c,d",
		"algorithm": "SHA-256", "qop": "auth", "nc": "00000001", "cnonce": `c"q`, "response": "abc"}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s: %q, want %q", k, p[k], v)
		}
	}
	for _, bad := range []string{"Digest", "Digest ", `Digest username="unterminated`, `Digest username=`,
		`Digest a=1, a=2`, `Digest =x`, `Digest a=1 b=2`, `Basic username="x"`, "Digest a=1,,", `Digest a="1"x`} {
		if _, ok := parseDigest(bad); ok {
			t.Errorf("%q parses", bad)
		}
	}
}

// FuzzParseBasic: whatever the header, the parser returns without
// panicking, and a name it returns is never empty.
func FuzzParseBasic(f *testing.F) {
	for _, s := range []string{basic("admin:secret"), "Basic ADoA", "Basic", "basic =", basic(":"), basic("a:b:c"), "Digest x=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		name, key, ok := parseBasic(header)
		if ok && (name == "" || strings.Contains(name, ":")) {
			t.Fatalf("%q gave name %q", header, name)
		}
		if !ok && (name != "" || key != "") {
			t.Fatalf("%q failed but returned %q %q", header, name, key)
		}
	})
}

// FuzzParseDigest: the parser never panics, and what it accepts has
// lower-case token names and survives being written back and parsed again.
func FuzzParseDigest(f *testing.F) {
	for _, s := range []string{
		`Digest username="shop", realm="Inventory REST-API", nonce="abc", uri="/api/x", algorithm=MD5, qop=auth, nc=00000001, cnonce="x", response="00"`,
		`Digest a="\\\""`, `Digest a=b,`, "Digest a=\"\x00\"", `Digest "`, `Digest a=b, a=c`, `Digest ,`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		p, ok := parseDigest(header)
		if !ok {
			return
		}
		var parts []string
		for k, v := range p {
			for i := 0; i < len(k); i++ {
				if !isTokenChar(k[i]) || ('A' <= k[i] && k[i] <= 'Z') {
					t.Fatalf("%q gave parameter name %q", header, k)
				}
			}
			parts = append(parts, k+`="`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)+`"`)
		}
		again, ok := parseDigest("Digest " + strings.Join(parts, ", "))
		if !ok || len(again) != len(p) {
			t.Fatalf("%q: written back it does not parse: %v", header, again)
		}
		for k, v := range p {
			if again[k] != v {
				t.Fatalf("%q: %s was %q, written back %q", header, k, v, again[k])
			}
		}
	})
}
