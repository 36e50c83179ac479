package test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/domain/lockout"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// What the database keeps to check API keys is useless without the
// service's secret, kept outside the database, so that a copy of the
// database alone (a file, a backup, a replica) lets nobody sign in.

// Secrets of other instances than the tests' usual one (testdb.SecretKey).
const (
	otherSecret = "b3RoZXIgc2VydmljZSwgb3RoZXIgc2VjcmV0IGtleSEh" // 33 bytes, base64
	thirdSecret = "7468697264207365637265742c2033322062797465732c206865782121212121"
)

// sameKindDatabase is a fresh database of the kind databaseURL names.
func sameKindDatabase(t *testing.T, databaseURL string) string {
	t.Helper()
	if strings.HasPrefix(databaseURL, "sqlite:") {
		return testdb.SQLite(t)
	}
	return testdb.Postgres(t)
}

// storedCredentials are the columns of api_users that check a key.
type storedCredentials struct{ keyHash, keyCheck, digestSHA256, digestMD5 sql.NullString }

func readStored(t *testing.T, env *apitest.Env, name string) storedCredentials {
	t.Helper()
	var c storedCredentials
	if err := env.DB.Bun().NewRaw("SELECT key_hash, key_check, digest_sha256, digest_md5 FROM api_users WHERE name = ?", name).
		Scan(context.Background(), &c.keyHash, &c.keyCheck, &c.digestSHA256, &c.digestMD5); err != nil {
		t.Fatal(err)
	}
	return c
}

func writeStored(t *testing.T, env *apitest.Env, name string, c storedCredentials) {
	t.Helper()
	if _, err := env.DB.Bun().NewRaw("UPDATE api_users SET key_hash = ?, key_check = ?, digest_sha256 = ?, digest_md5 = ? WHERE name = ?",
		c.keyHash, c.keyCheck, c.digestSHA256, c.digestMD5, name).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// digestWithHA1 sends a Digest request made from ha1, which a client that
// knows the key computes as H(name:realm:key), under a fresh nonce.
func digestWithHA1(t *testing.T, env *apitest.Env, name, ha1 string, alg user.DigestAlgorithm, method, path, body string) *apitest.Response {
	t.Helper()
	nonce := digestNonce.FindStringSubmatch(digestChallenges(t, env, "/api/warehouses")[1])[1]
	d := user.DigestRequest{Algorithm: alg, Method: method, URI: path, Nonce: nonce, NC: "00000001", CNonce: "0a4f113b"}
	auth := fmt.Sprintf(`Digest username="%s", realm="Inventory REST-API", nonce="%s", uri="%s", algorithm=%s, qop=auth, nc=%s, cnonce="%s", response="%s"`,
		name, nonce, path, alg, d.NC, d.CNonce, d.Expected(ha1))
	var req *http.Request
	if body == "" {
		req, _ = http.NewRequest(method, path, nil)
	} else {
		req, _ = http.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", auth)
	return env.DoRaw(t, req)
}

func digestWithKey(t *testing.T, env *apitest.Env, name, key string, alg user.DigestAlgorithm) int {
	t.Helper()
	return digestWithHA1(t, env, name, user.DigestHA1(alg, name, key), alg, http.MethodGet, "/api/warehouses", "").Status
}

func basicWithKey(t *testing.T, env *apitest.Env, name, key string) int {
	t.Helper()
	return usersAs(t, env, name, key, http.MethodGet, "/api/warehouses", nil).Status
}

// createUser adds a user over the API and returns its key.
func createUser(t *testing.T, env *apitest.Env, body map[string]any) string {
	t.Helper()
	res := env.Do(t, http.MethodPost, "/api/users", body)
	if res.Status != http.StatusCreated {
		t.Fatalf("create %v: %s", body, res)
	}
	key, _ := res.JSON(t)["data"].(map[string]any)["key"].(string)
	return key
}

var intruder = `{"name":"intruder","role":"admin"}`

// The attack of the review: the stored values are read out of the database
// and used against the service itself, and against another instance that
// runs with another secret and has them copied into its own database. No
// Digest request made from them, and not even the right key, passes; a
// third instance with the same secret takes the copied values, which shows
// that the secret is what they lack.
func TestACopyOfTheDatabaseAuthenticatesNobody(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		victim := apitest.New(t, databaseURL)
		key := createUser(t, victim, map[string]any{"name": "victim", "role": "admin", "digest": true})
		if basicWithKey(t, victim, "victim", key) != http.StatusOK || digestWithKey(t, victim, "victim", key, user.DigestSHA256) != http.StatusOK {
			t.Fatal("the victim's key works with Basic and Digest")
		}
		stored := readStored(t, victim, "victim")

		// Nothing stored is a hash of the key that a guess could be
		// compared with, nor what Digest computes from the key.
		sum := sha256.Sum256([]byte(key))
		for _, h := range []string{hex.EncodeToString(sum[:]), user.DigestHA1(user.DigestSHA256, "victim", key), user.DigestHA1(user.DigestMD5, "victim", key)} {
			for _, v := range []sql.NullString{stored.keyHash, stored.keyCheck, stored.digestSHA256, stored.digestMD5} {
				if strings.Contains(strings.ToLower(v.String), h) {
					t.Fatalf("the database keeps %q, which a guess of the key can be checked against", h)
				}
			}
		}

		// Nor does the database keep the keys that sign Digest nonces and
		// the console's sign-in forms: they derive from the secret.
		for _, table := range []string{"auth_secrets", "console_form_key"} {
			if tableExists(t, victim.DB, table) {
				t.Errorf("the database keeps %s", table)
			}
		}

		// A Digest request made from the stored values, as if they were
		// H(name:realm:key), creating an admin: refused.
		for _, v := range []struct {
			alg    user.DigestAlgorithm
			stored string
		}{{user.DigestSHA256, stored.digestSHA256.String}, {user.DigestMD5, stored.digestMD5.String}} {
			if res := digestWithHA1(t, victim, "victim", v.stored, v.alg, http.MethodPost, "/api/users", intruder); res.Status != http.StatusUnauthorized {
				t.Fatalf("%s: a Digest request made from the stored value: %s", v.alg, res)
			}
		}

		// The values copied into another instance's database, which runs
		// with another secret: neither they nor the right key pass there.
		other := apitest.NewWithSecrets(t, sameKindDatabase(t, databaseURL), httpapi.Config{Lockout: lockout.Rule{PerAddress: 1 << 20, PerName: 1 << 20}},
			apitest.SecretsOf(t, otherSecret))
		createUser(t, other, map[string]any{"name": "victim", "role": "admin", "digest": true})
		writeStored(t, other, "victim", stored)
		if got := basicWithKey(t, other, "victim", key); got != http.StatusUnauthorized {
			t.Fatalf("the right key, Basic, against the copied values under another secret: %d", got)
		}
		for _, alg := range user.DigestAlgorithms {
			if got := digestWithKey(t, other, "victim", key, alg); got != http.StatusUnauthorized {
				t.Fatalf("the right key, Digest %s, against the copied values under another secret: %d", alg, got)
			}
		}
		if res := digestWithHA1(t, other, "victim", stored.digestSHA256.String, user.DigestSHA256, http.MethodPost, "/api/users", intruder); res.Status != http.StatusUnauthorized {
			t.Fatalf("a Digest request made from the stored value, on the other instance: %s", res)
		}

		// The same copy under the same secret works: the test tells the
		// secret apart, not some other difference between the instances.
		same := apitest.New(t, sameKindDatabase(t, databaseURL))
		createUser(t, same, map[string]any{"name": "victim", "role": "admin"})
		writeStored(t, same, "victim", stored)
		if basicWithKey(t, same, "victim", key) != http.StatusOK || digestWithKey(t, same, "victim", key, user.DigestMD5) != http.StatusOK {
			t.Fatal("the copied values under the same secret check the key")
		}
	})
}

// A user without Digest answers Digest with 401, even with the right key,
// and the attempt counts against the lockout like any failed one.
func TestDigestIsOffByDefaultAndAFailureWhenOff(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.NewWithConfig(t, databaseURL, httpapi.Config{
			Lockout: lockout.Rule{PerAddress: 1 << 20, PerName: 3, Window: time.Minute, MaxTracked: 100}})
		key := createUser(t, env, map[string]any{"name": "plain", "role": "reader"})
		res := env.Do(t, http.MethodGet, "/api/users?filter[0][property]=user.name&filter[0][value]=plain", nil)
		if !strings.Contains(string(res.Body), `"digest":false`) {
			t.Fatalf("digest is false by default: %s", res)
		}
		if basicWithKey(t, env, "plain", key) != http.StatusOK {
			t.Fatal("Basic works")
		}
		for i := 0; i < 3; i++ {
			if got := digestWithKey(t, env, "plain", key, user.DigestAlgorithms[i%2]); got != http.StatusUnauthorized {
				t.Fatalf("Digest without Digest on, attempt %d: %d", i+1, got)
			}
		}
		if got := basicWithKey(t, env, "plain", key); got != http.StatusTooManyRequests {
			t.Fatalf("after three Digest attempts of a user without Digest, the right key gets %d, want 429", got)
		}
	})
}

// PUT {"digest": true} issues a new key, shown once and kept by no cache;
// the old key fails at once, the new one works with Basic and Digest, and
// the user's console sessions end. {"digest": false} keeps the key for
// Basic.
func TestTurningDigestOnIssuesANewKey(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		old := createUser(t, env, map[string]any{"name": "shop", "role": "operator"})
		res := env.Do(t, http.MethodGet, "/api/users?filter[0][property]=user.name&filter[0][value]=shop", nil)
		var list struct {
			Data []struct {
				ID     int64 `json:"id"`
				Digest bool  `json:"digest"`
			} `json:"data"`
		}
		res.Decode(t, &list)
		if len(list.Data) != 1 || list.Data[0].Digest {
			t.Fatalf("list: %s", res)
		}
		id := list.Data[0].ID
		path := fmt.Sprintf("/api/users/%d", id)
		token, err := env.App.SignIn(context.Background(), "shop", old)
		if err != nil || token == "" {
			t.Fatalf("sign-in: %q %v", token, err)
		}

		// Refused whole: a bad value, and Digest with a change the
		// last-admin rule refuses.
		if res := env.Do(t, http.MethodPut, path, `{"digest":"yes"}`); res.Status != http.StatusBadRequest {
			t.Fatalf("digest as a string: %s", res)
		}
		adminID := int64(1)
		if res := env.Do(t, http.MethodPut, fmt.Sprintf("/api/users/%d", adminID), `{"role":"reader","digest":true}`); res.Status != http.StatusBadRequest ||
			basicWithKey(t, env, apitest.User, apitest.Key) != http.StatusOK {
			t.Fatalf("demoting the last admin and turning Digest on: %s", res)
		}

		res = env.Do(t, http.MethodPut, path, map[string]any{"digest": true})
		var turned struct {
			Data struct {
				Key string `json:"key"`
			} `json:"data"`
		}
		res.Decode(t, &turned)
		if res.Status != http.StatusOK || len(turned.Data.Key) < 32 || turned.Data.Key == old || res.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("digest on: %s %q", res, res.Header.Get("Cache-Control"))
		}
		key := turned.Data.Key
		if basicWithKey(t, env, "shop", old) != http.StatusUnauthorized || digestWithKey(t, env, "shop", old, user.DigestSHA256) != http.StatusUnauthorized {
			t.Fatal("the old key fails at once")
		}
		if basicWithKey(t, env, "shop", key) != http.StatusOK {
			t.Fatal("the new key works with Basic")
		}
		for _, alg := range user.DigestAlgorithms {
			if got := digestWithKey(t, env, "shop", key, alg); got != http.StatusOK {
				t.Fatalf("the new key with Digest %s: %d", alg, got)
			}
		}
		if u, err := env.App.SessionUser(context.Background(), token); err != nil || u != nil {
			t.Fatalf("a console session outlives turning Digest on: %+v %v", u, err)
		}
		if res := env.Do(t, http.MethodGet, path, nil); !strings.Contains(string(res.Body), `"digest":true`) {
			t.Fatalf("get: %s", res)
		}

		// On again: nothing changes, no key.
		if res := env.Do(t, http.MethodPut, path, `{"digest":true}`); res.Status != http.StatusOK || string(res.Body) != `{"success":true}` ||
			basicWithKey(t, env, "shop", key) != http.StatusOK {
			t.Fatalf("digest on again: %s", res)
		}
		token, _ = env.App.SignIn(context.Background(), "shop", key)
		if res := env.Do(t, http.MethodPut, path, `{"digest":false}`); res.Status != http.StatusOK || string(res.Body) != `{"success":true}` {
			t.Fatalf("digest off: %s", res)
		}
		if digestWithKey(t, env, "shop", key, user.DigestSHA256) != http.StatusUnauthorized || basicWithKey(t, env, "shop", key) != http.StatusOK {
			t.Fatal("digest off: Digest fails, Basic keeps the key")
		}
		if u, _ := env.App.SessionUser(context.Background(), token); u == nil {
			t.Fatal("turning Digest off keeps the key and the sessions")
		}
		if c := readStored(t, env, "shop"); c.digestSHA256.Valid || c.digestMD5.Valid {
			t.Fatalf("digest off keeps Digest values: %+v", c)
		}

		// Rotation keeps Digest on or off as it is.
		env.Do(t, http.MethodPut, path, `{"digest":true}`)
		res = env.Do(t, http.MethodPost, path+"/rotateKey", nil)
		rotated, _ := res.JSON(t)["data"].(map[string]any)["key"].(string)
		if digestWithKey(t, env, "shop", rotated, user.DigestMD5) != http.StatusOK {
			t.Fatal("a rotated key of a user with Digest works with Digest")
		}
	})
}

// Users stored before there was a secret: the first start with one seals
// their SHA-256 (the key works on for Basic) and drops their plain Digest
// values (Digest is off until a new key is issued with it).
func TestUsersFromBeforeTheSecretKeepTheirKeyForBasic(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		const key = "a-key-from-before-0123456789"
		sum := sha256.Sum256([]byte(key))
		if _, err := env.DB.Bun().NewRaw("INSERT INTO api_users (name, key_hash, role, enabled, digest_sha256, digest_md5) VALUES (?, ?, ?, ?, ?, ?)",
			"legacy", hex.EncodeToString(sum[:]), "operator", true,
			user.DigestHA1(user.DigestSHA256, "legacy", key), user.DigestHA1(user.DigestMD5, "legacy", key)).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		n, err := env.App.SealCredentials(apitest.Admin())
		if err != nil || n != 1 {
			t.Fatalf("sealed %d: %v", n, err)
		}
		c := readStored(t, env, "legacy")
		if c.keyHash.String != "" || !strings.HasPrefix(c.keyCheck.String, "s1.") || c.digestSHA256.Valid || c.digestMD5.Valid {
			t.Fatalf("stored after sealing: %+v", c)
		}
		if n, err := env.App.SealCredentials(apitest.Admin()); err != nil || n != 0 {
			t.Fatalf("a second start seals %d: %v", n, err)
		}
		if basicWithKey(t, env, "legacy", key) != http.StatusOK {
			t.Fatal("the old key works for Basic")
		}
		if digestWithKey(t, env, "legacy", key, user.DigestSHA256) != http.StatusUnauthorized {
			t.Fatal("Digest with the old plain values")
		}
		res := env.Do(t, http.MethodGet, "/api/users?filter[0][property]=user.name&filter[0][value]=legacy", nil)
		var list struct {
			Data []struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		res.Decode(t, &list)
		res = env.Do(t, http.MethodPut, fmt.Sprintf("/api/users/%d", list.Data[0].ID), `{"digest":true}`)
		fresh, _ := res.JSON(t)["data"].(map[string]any)["key"].(string)
		if digestWithKey(t, env, "legacy", fresh, user.DigestSHA256) != http.StatusOK || basicWithKey(t, env, "legacy", key) != http.StatusUnauthorized {
			t.Fatal("Digest with a new key; the old one fails")
		}
	})
}
