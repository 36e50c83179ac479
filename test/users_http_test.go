package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Users and roles over HTTP, on both databases.

func TestUsersHTTP(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		admin := func(method, path string, body any) *apitest.Response {
			return usersAs(t, e.Env, apitest.User, usersAdminKey, method, path, body)
		}
		res := admin(http.MethodPost, "/api/users", map[string]string{"name": "shop", "role": "operator"})
		if res.Status != http.StatusCreated {
			t.Fatalf("create: %s", res)
		}
		var created struct {
			Data struct {
				ID       int64  `json:"id"`
				Location string `json:"location"`
				Key      string `json:"key"`
			} `json:"data"`
		}
		res.Decode(t, &created)
		id, key := created.Data.ID, created.Data.Key
		if len(key) < 32 || created.Data.Location != e.URL+fmt.Sprintf("/api/users/%d", id) || res.Header.Get("Location") != created.Data.Location {
			t.Fatalf("created: %s", res)
		}

		res = admin(http.MethodGet, fmt.Sprintf("/api/users/%d", id), nil)
		want := fmt.Sprintf(`{"success":true,"data":{"id":%d,"name":"shop","role":"operator","enabled":true,"digest":false}}`, id)
		if res.Status != http.StatusOK || string(res.Body) != want {
			t.Fatalf("get: %s, want %s", res, want)
		}
		res = admin(http.MethodGet, "/api/users?filter[0][property]=user.role&filter[0][value]=operator&sort[0][property]=user.name", nil)
		if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"total":1,`) || strings.Contains(string(res.Body), key) {
			t.Fatalf("list: %s", res)
		}
		res = admin(http.MethodGet, "/api/users?filter[0][property]=user.key&filter[0][value]=x", nil)
		if res.Status != http.StatusBadRequest || !strings.Contains(usersMessage(t, res), "user.name") {
			t.Fatalf("an unknown list property: %s", res)
		}
		if res := usersAs(t, e.Env, "shop", key, http.MethodGet, "/api/warehouses", nil); res.Status != http.StatusOK {
			t.Fatalf("the new key works: %s", res)
		}

		for _, tc := range []struct {
			body     any
			property string
		}{
			{map[string]string{"name": "shop", "role": "reader"}, "name"},
			{map[string]string{"name": "bad name", "role": "reader"}, "name"},
			{map[string]string{"name": strings.Repeat("n", 65), "role": "reader"}, "name"},
			{map[string]string{"name": "x\ty", "role": "reader"}, "name"},
			{map[string]string{"name": "x", "role": "root"}, "role"},
			{map[string]string{"role": "reader"}, "name"},
			{map[string]string{"name": "x"}, "role"},
			{map[string]any{"name": "x", "role": "reader", "key": "mine"}, "key"},
			{map[string]any{"name": "x", "role": "reader", "bogus": 1}, "bogus"},
		} {
			res := admin(http.MethodPost, "/api/users", tc.body)
			var b struct {
				Errors []struct{ Property string } `json:"errors"`
			}
			res.Decode(t, &b)
			if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), tc.property) {
				t.Errorf("create %v: %s, want 400 naming %s", tc.body, res, tc.property)
			}
		}

		path := fmt.Sprintf("/api/users/%d", id)
		if res := admin(http.MethodPut, path, map[string]any{"role": "reader"}); res.Status != http.StatusOK {
			t.Fatalf("update role: %s", res)
		}
		if res := usersAs(t, e.Env, "shop", key, http.MethodPost, "/api/warehouses", map[string]any{"code": "W", "name": "W"}); res.Status != http.StatusForbidden {
			t.Fatalf("a reader may not write: %s", res)
		}
		for _, body := range []any{map[string]any{"role": "root"}, map[string]any{"name": "other"}, map[string]any{"enabled": "yes"}, `{"role":`} {
			if res := admin(http.MethodPut, path, body); res.Status != http.StatusBadRequest {
				t.Errorf("update %v: %s", body, res)
			}
		}
		if res := admin(http.MethodPut, path, map[string]any{"enabled": false}); res.Status != http.StatusOK {
			t.Fatalf("disable: %s", res)
		}
		res = usersAs(t, e.Env, "shop", key, http.MethodGet, "/api/warehouses", nil)
		if res.Status != http.StatusUnauthorized {
			t.Fatalf("a disabled user is a 401: %s", res)
		}
		admin(http.MethodPut, path, map[string]any{"enabled": true})

		// Rotation: the old key fails at once, here and on another instance.
		other := e.second()
		if res := usersAs(t, other, "shop", key, http.MethodGet, "/api/warehouses", nil); res.Status != http.StatusOK {
			t.Fatalf("the other instance knows the key: %s", res)
		}
		res = admin(http.MethodPost, path+"/rotateKey", nil)
		var rotated struct {
			Data struct{ Key string } `json:"data"`
		}
		res.Decode(t, &rotated)
		if res.Status != http.StatusOK || len(rotated.Data.Key) < 32 || rotated.Data.Key == key {
			t.Fatalf("rotate: %s", res)
		}
		for _, env := range []*apitest.Env{e.Env, other} {
			if res := usersAs(t, env, "shop", key, http.MethodGet, "/api/warehouses", nil); res.Status != http.StatusUnauthorized {
				t.Fatalf("the old key fails at once on every instance: %s", res)
			}
			if res := usersAs(t, env, "shop", rotated.Data.Key, http.MethodGet, "/api/warehouses", nil); res.Status != http.StatusOK {
				t.Fatalf("the new key works on every instance: %s", res)
			}
		}
		if res := admin(http.MethodPost, path+"/rotateKey", `{"key":"mine"}`); res.Status != http.StatusBadRequest {
			t.Errorf("rotate takes no key: %s", res)
		}

		// The last enabled admin.
		var list struct {
			Data []struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			} `json:"data"`
		}
		admin(http.MethodGet, "/api/users?filter[0][property]=user.name&filter[0][value]=admin", nil).Decode(t, &list)
		adminPath := fmt.Sprintf("/api/users/%d", list.Data[0].ID)
		for _, tc := range []struct {
			method string
			body   any
		}{
			{http.MethodPut, map[string]any{"role": "operator"}},
			{http.MethodPut, map[string]any{"enabled": false}},
			{http.MethodDelete, nil},
		} {
			res := admin(tc.method, adminPath, tc.body)
			if res.Status != http.StatusBadRequest || !strings.Contains(usersMessage(t, res), "last enabled admin") {
				t.Errorf("%s the last admin %v: %s", tc.method, tc.body, res)
			}
		}

		if res := admin(http.MethodDelete, path, nil); res.Status != http.StatusOK {
			t.Fatalf("delete: %s", res)
		}
		for _, tc := range []struct{ method, path string }{
			{http.MethodGet, path}, {http.MethodPut, path}, {http.MethodDelete, path}, {http.MethodPost, path + "/rotateKey"},
			{http.MethodGet, "/api/users/0"}, {http.MethodGet, "/api/users/abc"},
		} {
			var body any
			if tc.method == http.MethodPut {
				body = map[string]any{"enabled": true}
			}
			if res := admin(tc.method, tc.path, body); res.Status != http.StatusNotFound {
				t.Errorf("%s %s: %s", tc.method, tc.path, res)
			}
		}
		if res := usersAs(t, e.Env, "shop", rotated.Data.Key, http.MethodGet, "/api/warehouses", nil); res.Status != http.StatusUnauthorized {
			t.Fatalf("a deleted user is a 401: %s", res)
		}
	})
}

// Users and webhooks are for admins only, in every method; the body says
// why.
func TestOnlyAdminsManageUsers(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		id, _ := e.addUser("victim", "reader")
		for _, role := range []string{"operator", "reader"} {
			_, key := e.addUser(role+"-user", role)
			for _, tc := range []struct {
				method, path string
				body         any
			}{
				{http.MethodGet, "/api/users", nil},
				{http.MethodPost, "/api/users", map[string]string{"name": "x", "role": "admin"}},
				{http.MethodGet, fmt.Sprintf("/api/users/%d", id), nil},
				{http.MethodPut, fmt.Sprintf("/api/users/%d", id), map[string]any{"role": "admin"}},
				{http.MethodPost, fmt.Sprintf("/api/users/%d/rotateKey", id), nil},
				{http.MethodDelete, fmt.Sprintf("/api/users/%d", id), nil},
			} {
				res := usersAs(t, e.Env, role+"-user", key, tc.method, tc.path, tc.body)
				if res.Status != http.StatusForbidden || !strings.HasPrefix(usersMessage(t, res), "forbidden: ") {
					t.Errorf("%s: %s %s: %s", role, tc.method, tc.path, res)
				}
			}
		}
		if res := e.Do(t, http.MethodGet, fmt.Sprintf("/api/users/%d", id), nil); res.Status != http.StatusUnauthorized {
			// e.Do sends apitest.Key, which is not this env's admin key.
			t.Fatalf("wrong admin key: %s", res)
		}
	})
}

// The ledger and the access log name the user who made the change.
func TestTheLedgerAndTheAccessLogNameTheUser(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		_, key := e.addUser("warehouse-app", "operator")
		op := func(method, path string, body any) *apitest.Response {
			t.Helper()
			res := usersAs(t, e.Env, "warehouse-app", key, method, path, body)
			if res.Status >= 300 {
				t.Fatalf("%s %s: %s", method, path, res)
			}
			return res
		}
		op(http.MethodPost, "/api/warehouses", map[string]any{"code": "WH", "name": "Main"})
		op(http.MethodPost, "/api/articleDetails", map[string]any{"id": 1, "number": "SKU-1"})
		op(http.MethodPut, "/api/stock/change/user-ledger", `[{"articleDetailId": 1, "quantity": 3, "warehouse": {"code": "WH"}}]`)
		res := op(http.MethodGet, "/api/stockLedgerEntries", nil)
		if !strings.Contains(string(res.Body), `"user":"warehouse-app"`) {
			t.Fatalf("the ledger names the user: %s", res)
		}
		named := 0
		for _, entry := range e.logs.FilterMessage("request").All() {
			if entry.ContextMap()["user"] == "warehouse-app" {
				named++
			}
		}
		if named != 4 {
			t.Fatalf("%d of 4 access-log lines name the user", named)
		}
	})
}
