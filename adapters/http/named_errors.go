package http

import (
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
)

// named is err with the request's properties it concerns in the answer's
// errors, for a refusal that concerns several (an error that names one
// property has it listed by writeError). Errors that list fields or lines
// already, or are not a refused request, come back as they are.
func named(err error, properties ...string) error {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || len(e.Fields) > 0 || len(e.Lines) > 0 {
		return err
	}
	if len(properties) == 0 {
		return err
	}
	c := *e
	c.Fields = make([]errs.FieldError, len(properties))
	for i, p := range properties {
		c.Fields[i] = errs.FieldError{Property: p, Message: e.Message}
	}
	return &c
}

// lastAdminNamed names what in a user's change would leave no enabled
// admin: the role it demotes to, the enabled it turns off, or both.
func lastAdminNamed(err error, role *user.Role, enabled *bool) error {
	if e, ok := errs.As(err); !ok || e.Code != user.ErrLastAdmin.Code {
		return err
	}
	var properties []string
	if role != nil && *role != user.Admin {
		properties = append(properties, "role")
	}
	if enabled != nil && !*enabled {
		properties = append(properties, "enabled")
	}
	return named(err, properties...)
}
