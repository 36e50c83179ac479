package http

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
)

// rolesRule is the rule of the roles, written independently of the
// permission table: users and webhooks are for admins, any other GET for readers,
// everything else for operators.
func rolesRule(pattern string) user.Role {
	method, path, _ := strings.Cut(pattern, " ")
	for _, adminOnly := range []string{"/api/users", "/api/webhooks"} {
		if path == adminOnly || strings.HasPrefix(path, adminOnly+"/") {
			return user.Admin
		}
	}
	if method == "GET" {
		return user.Reader
	}
	return user.Operator
}

// Each route's action comes, through the permission table, to the role
// the rule of the roles gives the route.
func TestRouteActionsFollowTheRoles(t *testing.T) {
	for pattern, action := range routeActions {
		role, ok := access.LeastRole(action)
		if want := rolesRule(pattern); !ok || role != want {
			t.Errorf("%s does %q, which needs %q, the roles' rule says %s", pattern, action, role, want)
		}
	}
}

// Every entry names a registered route, and NewHandler refuses a route
// without one.
func TestEveryRouteHasAnActionAndEveryActionARoute(t *testing.T) {
	h, err := NewHandler(nil, zap.NewNop(), Config{}, nil, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for pattern := range routeActions {
		method, path, _ := strings.Cut(pattern, " ")
		probe := strings.NewReplacer("{id}", "1", "{articleDetailId}", "1", "{idempotencyKey}", "k").Replace(path)
		req := newRequest(method, probe)
		if _, got := h.mux.Handler(req); got != pattern {
			t.Errorf("routeActions has %s, but %s %s goes to %q", pattern, method, probe, got)
		}
		registered[pattern] = true
	}
	h.api("PATCH /api/somethingNew", nil)
	if len(h.unlisted) != 1 || h.unlisted[0] != "PATCH /api/somethingNew" {
		t.Fatalf("a route without an action is noticed: %v", h.unlisted)
	}
}

// A use case's refusal is a 403 in the same body as the route's own check.
func TestAUseCaseThatRefusesIsA403(t *testing.T) {
	h, err := NewHandler(nil, zap.NewNop(), Config{}, nil, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.writeError(w, newRequest("GET", "/api/events"), errs.Forbiddenf("forbidden: user %q is a reader, and to manage users needs the admin role", "x"))
	want := `{"success":false,"message":"forbidden: user \"x\" is a reader, and to manage users needs the admin role"}`
	if got := strings.TrimSpace(w.Body.String()); w.Code != http.StatusForbidden || got != want {
		t.Errorf("%d %s, want 403 %s", w.Code, got, want)
	}
}
