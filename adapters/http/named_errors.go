package http

import (
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
)

// named is err with its properties in the answer's errors: a client that
// sent several properties must see which one was refused, and the domain
// names it on the error (Property) without listing it. properties, when
// given, are the request's properties the refusal concerns; otherwise the
// error's own Property is named. Errors that list fields or lines already,
// name no property, or are not a refused request come back as they are.
func named(err error, properties ...string) error {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || len(e.Fields) > 0 || len(e.Lines) > 0 {
		return err
	}
	if len(properties) == 0 && e.Property != "" {
		properties = []string{e.Property}
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

// namedWarehouse names the warehouse a shipment or a picking list was to
// come from, when that is what was refused; other refusals of those
// requests (shortfalls per position, a cancelled order) keep their own
// answer, since the body holds no property they concern.
func namedWarehouse(err error) error {
	if errs.PropertyOf(err) != "warehouse" {
		return err
	}
	return named(err)
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
