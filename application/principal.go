package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
)

// System is the service itself at work where no user asks: the purges and
// dispatchers in the background, the API user ensured at start, and the
// command line, which only whoever runs the machine can use. It is an
// admin.
var System = Principal{Name: "system", Role: user.Admin}

type principalKey struct{}

// WithPrincipal makes p the caller of the use cases that ctx is passed to.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom is the caller that ctx carries, and whether it carries one.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// permit lets the caller of ctx do a, as the permission table has it.
// Every use case asks it before anything else; a context without a caller
// is refused, so that forgetting to name one never grants anything.
func permit(ctx context.Context, a access.Action) error {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return errs.Forbiddenf("forbidden: no caller is known, and only a known one may %s", a)
	}
	if access.Allows(p.Role, a) {
		return nil
	}
	need, _ := access.LeastRole(a)
	return errs.Forbiddenf("forbidden: user %q is a %s, and to %s needs the %s role", p.Name, p.Role, a, need)
}
