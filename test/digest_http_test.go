package test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/icholy/digest"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Digest (RFC 7616) beside Basic, with clients we did not write.

var digestNonce = regexp.MustCompile(`nonce="([^"]+)"`)

// digestChallenges asks without credentials and returns the challenges.
func digestChallenges(t *testing.T, env *apitest.Env, path string) []string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, path, nil)
	res := env.DoRaw(t, req)
	if res.Status != http.StatusUnauthorized {
		t.Fatalf("without credentials: %s", res)
	}
	return res.Header.Values("WWW-Authenticate")
}

func TestTheChallengeOffersBasicThenDigest(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		got := digestChallenges(t, e.Env, "/api/warehouses")
		if len(got) != 3 || got[0] != `Basic realm="Inventory REST-API"` ||
			!regexp.MustCompile(`^Digest realm="Inventory REST-API", qop="auth", algorithm=SHA-256, nonce="[A-Za-z0-9_-]+"$`).MatchString(got[1]) ||
			!regexp.MustCompile(`^Digest realm="Inventory REST-API", qop="auth", algorithm=MD5, nonce="[A-Za-z0-9_-]+"$`).MatchString(got[2]) {
			t.Fatalf("challenges: %q", got)
		}
	})
}

// icholy/digest, a Go transport, on both algorithms: many requests under one
// challenge (growing nonce counts), reads and writes, a wrong key.
func TestDigestWithAGoTransport(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		_, key := e.addDigestUser("storefront", "operator")
		for _, alg := range []string{"SHA-256", "MD5"} {
			find := func(h http.Header) (*digest.Challenge, error) {
				for _, v := range h.Values("WWW-Authenticate") {
					if strings.HasPrefix(v, "Digest ") && strings.Contains(v, "algorithm="+alg+",") {
						return digest.ParseChallenge(v)
					}
				}
				return nil, errors.New("no challenge for " + alg)
			}
			client := &http.Client{Transport: &digest.Transport{Username: "storefront", Password: key, FindChallenge: find}}
			for i := 0; i < 3; i++ {
				res, err := client.Get(e.URL + "/api/warehouses?limit=5")
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					t.Fatalf("%s request %d: %d %s", alg, i, res.StatusCode, body)
				}
			}
			code := fmt.Sprintf("D-%s", alg)
			req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/warehouses", bytes.NewReader([]byte(`{"code":"`+code+`","name":"Digest"}`)))
			req.Header.Set("Content-Type", "application/json")
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusCreated {
				t.Fatalf("%s: a write: %d", alg, res.StatusCode)
			}
			wrong := &http.Client{Transport: &digest.Transport{Username: "storefront", Password: "wrong-key-0123456789", FindChallenge: find}}
			res, err = wrong.Get(e.URL + "/api/warehouses")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("%s: a wrong key: %d", alg, res.StatusCode)
			}
		}
		// The log names the user of Digest requests, too.
		named := 0
		for _, entry := range e.logs.FilterMessage("request").All() {
			if entry.ContextMap()["user"] == "storefront" {
				named++
			}
		}
		if named != 8 {
			t.Fatalf("%d of 8 Digest requests logged with the user", named)
		}
	})
}

// curl --digest, as Debian ships it.
func TestDigestWithCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Fatal("curl is needed for this test (apt-get install curl)")
	}
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		_, key := e.addDigestUser("shopware-client", "reader")
		run := func(userinfo string, extra ...string) string {
			args := append([]string{"-sS", "-o", "/dev/null", "-w", "%{http_code}", "--digest", "-u", userinfo}, extra...)
			out, err := exec.Command(curl, args...).Output()
			if err != nil {
				t.Fatalf("curl %v: %v", args, err)
			}
			return string(out)
		}
		if got := run("shopware-client:"+key, e.URL+"/api/warehouses?limit=1&start=0"); got != "200" {
			t.Fatalf("curl --digest: %s", got)
		}
		if got := run("shopware-client:wrong-key-0123456789", e.URL+"/api/warehouses"); got != "401" {
			t.Fatalf("curl --digest with a wrong key: %s", got)
		}
		if got := run("shopware-client:"+key, "-X", "POST", "-H", "Content-Type: application/json",
			"-d", `{"code":"C","name":"C"}`, e.URL+"/api/warehouses"); got != "403" {
			t.Fatalf("curl --digest as a reader writing: %s", got)
		}
	})
}

// digestAuthorization builds a Digest header by hand, as a client would.
func digestAuthorization(name, key string, alg user.DigestAlgorithm, method, uri, nonce, nc string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	d := user.DigestRequest{Algorithm: alg, Method: method, URI: uri, Nonce: nonce, NC: nc, CNonce: hex.EncodeToString(b[:])}
	resp := d.Expected(alg.Hash(name + ":Inventory REST-API:" + key))
	return fmt.Sprintf(`Digest username="%s", realm="Inventory REST-API", nonce="%s", uri="%s", algorithm=%s, qop=auth, nc=%s, cnonce="%s", response="%s"`,
		name, nonce, uri, alg, nc, d.CNonce, resp)
}

func digestGet(t *testing.T, env *apitest.Env, authorization string) *apitest.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "/api/warehouses", nil)
	req.Header.Set("Authorization", authorization)
	return env.DoRaw(t, req)
}

func TestDigestNoncesExpireAndCountsAreNotReplayed(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		_, key := e.addDigestUser("shop", "reader")
		other := e.second()
		for _, alg := range user.DigestAlgorithms {
			nonce := digestNonce.FindStringSubmatch(digestChallenges(t, e.Env, "/api/warehouses")[1])[1]
			auth := func(nc string) string {
				return digestAuthorization("shop", key, alg, "GET", "/api/warehouses", nonce, nc)
			}
			first := auth("00000001")
			if res := digestGet(t, e.Env, first); res.Status != http.StatusOK {
				t.Fatalf("%s: %s", alg, res)
			}
			// The same nonce count again, here or on another instance: a replay.
			for _, env := range []*apitest.Env{e.Env, other} {
				if res := digestGet(t, env, first); res.Status != http.StatusUnauthorized || strings.Contains(strings.Join(res.Header.Values("WWW-Authenticate"), " "), "stale") {
					t.Fatalf("%s: a replayed nonce count: %s", alg, res)
				}
			}
			if res := digestGet(t, other, auth("00000002")); res.Status != http.StatusOK {
				t.Fatalf("%s: the next count on another instance: %s", alg, res)
			}
			if res := digestGet(t, e.Env, auth("00000002")); res.Status != http.StatusUnauthorized {
				t.Fatalf("%s: count 2 was used on the other instance: %s", alg, res)
			}
			// Another uri than the request's.
			if res := digestGet(t, e.Env, digestAuthorization("shop", key, alg, "GET", "/api/orders", nonce, "00000009")); res.Status != http.StatusUnauthorized {
				t.Fatalf("%s: a uri of another request: %s", alg, res)
			}

			// Five minutes later the nonce is stale: 401 with stale=true on
			// every Digest challenge, and a fresh nonce works.
			e.clock.Advance(application.DigestNonceLifetime + time.Second)
			res := digestGet(t, e.Env, auth("00000003"))
			ch := res.Header.Values("WWW-Authenticate")
			if res.Status != http.StatusUnauthorized || len(ch) != 3 || !strings.HasSuffix(ch[1], ", stale=true") || !strings.HasSuffix(ch[2], ", stale=true") {
				t.Fatalf("%s: an expired nonce: %s %q", alg, res, ch)
			}
			fresh := digestNonce.FindStringSubmatch(ch[1])[1]
			if res := digestGet(t, e.Env, digestAuthorization("shop", key, alg, "GET", "/api/warehouses", fresh, "00000001")); res.Status != http.StatusOK {
				t.Fatalf("%s: the fresh nonce: %s", alg, res)
			}
			// A wrong key with an expired nonce learns nothing about staleness.
			e.clock.Advance(application.DigestNonceLifetime + time.Second)
			res = digestGet(t, e.Env, digestAuthorization("shop", "wrong-key-0123456789", alg, "GET", "/api/warehouses", fresh, "00000002"))
			if res.Status != http.StatusUnauthorized || strings.Contains(strings.Join(res.Header.Values("WWW-Authenticate"), " "), "stale") {
				t.Fatalf("%s: a wrong key with an expired nonce: %q", alg, res.Header.Values("WWW-Authenticate"))
			}
		}
	})
}
