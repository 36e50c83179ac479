package http

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/domain/user"
)

// sectionU is the rule of extensions.md section U, written independently of
// the table: users and webhooks are for admins, any other GET for readers,
// everything else for operators.
func sectionU(pattern string) user.Role {
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

func TestRouteRolesFollowSectionU(t *testing.T) {
	for pattern, role := range routeRoles {
		if want := sectionU(pattern); role != want {
			t.Errorf("%s needs %s in routeRoles, section U says %s", pattern, role, want)
		}
	}
}

// Every entry names a registered route, and NewHandler refuses a route
// without one.
func TestEveryRouteHasARoleAndEveryRoleARoute(t *testing.T) {
	h, err := NewHandler(nil, zap.NewNop(), Config{}, nil, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for pattern := range routeRoles {
		method, path, _ := strings.Cut(pattern, " ")
		probe := strings.NewReplacer("{id}", "1", "{articleDetailId}", "1", "{idempotencyKey}", "k").Replace(path)
		req := newRequest(method, probe)
		if _, got := h.mux.Handler(req); got != pattern {
			t.Errorf("routeRoles has %s, but %s %s goes to %q", pattern, method, probe, got)
		}
		registered[pattern] = true
	}
	h.api("PATCH /api/somethingNew", nil)
	if len(h.unroled) != 1 || h.unroled[0] != "PATCH /api/somethingNew" {
		t.Fatalf("a route without a role is noticed: %v", h.unroled)
	}
}
