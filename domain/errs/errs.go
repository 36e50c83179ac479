// Package errs holds the one error type that travels from the domain to the
// edge of the service. Its Kind is all an adapter needs to pick a status code.
package errs

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the caller can do about it.
type Kind int

const (
	// Internal is a fault of the service itself; callers see no details.
	Internal Kind = iota
	// Invalid means the request broke a rule: bad input or a business rule.
	Invalid
	// NotFound means an addressed resource does not exist.
	NotFound
	// Conflict means the request collides with the current state (for
	// example an idempotency key reused for another request).
	Conflict
	// Unavailable means a dependency (the database) cannot be reached.
	Unavailable
	// Gone means what was asked for existed but has been removed for good
	// (events past their retention).
	Gone
	// Forbidden means the caller is known but its role may not do what it
	// asked (access.LeastRole), or no caller is known at all.
	Forbidden
)

func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case NotFound:
		return "not found"
	case Conflict:
		return "conflict"
	case Unavailable:
		return "unavailable"
	case Gone:
		return "gone"
	case Forbidden:
		return "forbidden"
	default:
		return "internal"
	}
}

// FieldError names one property of a request that failed validation.
type FieldError struct {
	Property string
	Message  string
}

// LineError names one line of an uploaded file that failed; lines count
// from 1, as an editor shows them.
type LineError struct {
	Line    int
	Message string
}

// Code names the rule an error breaks ("insufficient_stock"). It stays
// the same whatever the message says, so that an interface can tell the
// rule in its own words without reading the message.
type Code string

// Subject holds the ids of what an error concerns; zero is "not this one".
type Subject struct {
	ArticleDetail int64
	Warehouse     int64
	BinLocation   int64
	OrderDetail   int64
}

// Error is the service's error: a kind, a message meant for the client and,
// for validation failures, the offending properties or lines of a file.
//
// Property, Code and Subject say what the error concerns for an interface
// that shows it beside a field of its own. The API's answers show Message,
// Fields and Lines, and an invalid request's Property as its one field when
// there are no Fields.
type Error struct {
	Kind    Kind
	Message string
	Fields  []FieldError
	Lines   []LineError
	// Property is the property of the request the error concerns, as the
	// API spells it ("quantity", "destination.binLocation"); "" is the
	// request as a whole.
	Property string
	Code     Code
	Subject  Subject
	cause    error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return e.Message + ": " + e.cause.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.cause }

// On names the property of the request e concerns. Properties nest with
// dots: a property that holds a location names the location's own (see
// Within).
func (e *Error) On(property string) *Error {
	e.Property = property
	return e
}

// Breaks names the rule e breaks.
func (e *Error) Breaks(code Code) *Error {
	e.Code = code
	return e
}

// About names the ids e concerns.
func (e *Error) About(s Subject) *Error {
	e.Subject = s
	return e
}

// Within is err as the error of a property nested in parent ("source" for
// a relocation's source location): a copy whose Property is prefixed, so
// that an error shared by several operations stays as it was. Other errors
// come back as they are.
func Within(parent string, err error) error {
	e, ok := As(err)
	if parent == "" || !ok {
		return err
	}
	c := *e
	c.Property = parent
	if e.Property != "" {
		c.Property += "." + e.Property
	}
	return &c
}

// PropertyOf is the property of the request err concerns, "" when it
// concerns the request as a whole or is not the service's error.
func PropertyOf(err error) string {
	if e, ok := As(err); ok {
		return e.Property
	}
	return ""
}

// E builds an error of the given kind with a formatted message.
func E(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Invalidf is an Invalid error with a formatted message.
func Invalidf(format string, args ...any) *Error { return E(Invalid, format, args...) }

// NotFoundf is a NotFound error with a formatted message.
func NotFoundf(format string, args ...any) *Error { return E(NotFound, format, args...) }

// Conflictf is a Conflict error with a formatted message.
func Conflictf(format string, args ...any) *Error { return E(Conflict, format, args...) }

// Forbiddenf is a Forbidden error with a formatted message.
func Forbiddenf(format string, args ...any) *Error { return E(Forbidden, format, args...) }

// InvalidFields is a validation failure naming each offending property.
func InvalidFields(fields ...FieldError) *Error {
	msg := "validation failed"
	if len(fields) == 1 {
		msg = fields[0].Property + ": " + fields[0].Message
	} else if len(fields) > 1 {
		msg = fmt.Sprintf("validation failed for %d properties", len(fields))
	}
	e := &Error{Kind: Invalid, Message: msg, Fields: fields}
	if len(fields) == 1 {
		e.Property = fields[0].Property
	}
	return e
}

// InvalidLines is the rejection of a whole file because of the given lines.
func InvalidLines(message string, lines ...LineError) *Error {
	return &Error{Kind: Invalid, Message: message, Lines: lines}
}

// Wrap keeps cause for the log while the client sees only message.
func Wrap(kind Kind, cause error, message string) *Error {
	return &Error{Kind: kind, Message: message, cause: cause}
}

// KindOf reports the kind of err; errors that are not *Error are Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// As returns err as *Error when it is one.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Taken is the error of a value that must be unique and that another
// resource already has: property names the field, resource and value are
// how a client reads them ("a warehouse with code", `"WH1"`). Every
// uniqueness message is written here.
func Taken(property, resource, value string) *Error {
	return InvalidFields(FieldError{Property: property, Message: resource + " " + value + " already exists"})
}
