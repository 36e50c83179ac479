package test

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// roleNeededFor is the least role a request needs, written here apart from
// the service's own table so that the two check each other: /api/users and
// /api/webhooks are for admins in every method, any other GET under /api
// for readers, everything else for operators.
func roleNeededFor(method, path string) user.Role {
	for _, adminOnly := range []string{"/api/users", "/api/webhooks"} {
		if path == adminOnly || strings.HasPrefix(path, adminOnly+"/") {
			return user.Admin
		}
	}
	if method == http.MethodGet {
		return user.Reader
	}
	return user.Operator
}

// TestRoleMatrix walks every authenticated route of the OpenAPI document
// with every role: a role below what the route needs gets 403 with the
// error body, the others get past authorization. A route that the role
// table lacks stops NewHandler from building, so the service never starts;
// the table itself is held to the roles' rule in adapters/http's tests.
func TestRoleMatrix(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		names, keys := e.roleUsers("matrix")
		doc := apitest.Spec(t)
		paths := doc.Paths.InMatchingOrder()
		sort.Strings(paths)
		n := 0
		for _, path := range paths {
			if !strings.HasPrefix(path, "/api/") || path == "/api/openapi.json" || strings.HasPrefix(path, "/api/docs") {
				continue
			}
			for method := range doc.Paths.Find(path).Operations() {
				pattern := method + " " + path
				need := roleNeededFor(method, path)
				n++
				concrete := strings.NewReplacer("{id}", "999999", "{articleDetailId}", "999999",
					"{idempotencyKey}", fmt.Sprintf("matrix-%d", n)).Replace(path)
				var body any
				if method == http.MethodPost || method == http.MethodPut {
					body = "{}"
				}
				if res := usersAs(t, e.Env, "", "", method, concrete, body); res.Status != http.StatusUnauthorized {
					t.Errorf("%s without credentials: %s", pattern, res)
				}
				for _, role := range []user.Role{user.Admin, user.Operator, user.Reader} {
					res := usersAs(t, e.Env, names[role], keys[role], method, concrete, body)
					if role.Covers(need) {
						if res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden || res.Status >= 500 {
							t.Errorf("%s as %s: %s, want past authorization", pattern, role, res)
						}
						continue
					}
					if res.Status != http.StatusForbidden || !strings.HasPrefix(usersMessage(t, res), "forbidden: ") {
						t.Errorf("%s as %s: %s, want 403", pattern, role, res)
					}
				}
			}
		}
		if n < 30 {
			t.Fatalf("only %d routes walked", n)
		}
	})
}
