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
	// asked (section U), or no caller is known at all.
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

// Error is the service's error: a kind, a message meant for the client and,
// for validation failures, the offending properties or lines of a file.
type Error struct {
	Kind    Kind
	Message string
	Fields  []FieldError
	Lines   []LineError
	cause   error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return e.Message + ": " + e.cause.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.cause }

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
	return &Error{Kind: Invalid, Message: msg, Fields: fields}
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
