package http

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/domain/errs"
)

// strictOptions read a body as the interface defines it: a member the
// target does not have is an error, names match exactly.
var strictOptions = json.RejectUnknownMembers(true)

// decodeStrict decodes body into dst: unknown fields, read-only fields,
// wrong types and trailing data are 400s that name the property.
func decodeStrict(body []byte, dst any, readOnly ...string) error {
	if body == nil {
		return errs.Invalidf("request body is empty: a JSON object is expected")
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) == 0 || trimmed[0] != '{' {
		return errs.Invalidf("request body must be a JSON object")
	}
	if err := syntaxError(body, lenientText, jsontext.AllowDuplicateNames(true)); err != nil {
		return malformed(err)
	}
	if property, msg, found := textProblem(body, ""); found {
		return errs.InvalidFields(errs.FieldError{Property: property, Message: msg})
	}
	if err := json.Unmarshal(body, dst, strictOptions); err != nil {
		return decodeError(err, readOnly)
	}
	return nil
}

// decodeError names the property a decoding error is about.
func decodeError(err error, readOnly []string) error {
	var serr *json.SemanticError
	if !errors.As(err, &serr) {
		if errors.Is(err, jsontext.ErrDuplicateName) {
			var dup *jsontext.SyntacticError
			if errors.As(err, &dup) {
				return errs.Invalidf("malformed JSON: an object holds the key %q twice", dup.JSONPointer.LastToken())
			}
		}
		return malformed(err)
	}
	property := propertyOf(serr.JSONPointer)
	if errors.Is(serr.Err, json.ErrUnknownName) {
		if slices.Contains(readOnly, property) {
			return errs.InvalidFields(errs.FieldError{Property: property, Message: "is read-only"})
		}
		return errs.InvalidFields(errs.FieldError{Property: property, Message: "is not a known field"})
	}
	var syntax *jsontext.SyntacticError
	if errors.As(serr.Err, &syntax) {
		return malformed(syntax)
	}
	msg := fmt.Sprintf("must be %s, not %s", jsonType(serr.GoType), sentKind(serr))
	if property == "" {
		return errs.Invalidf("request body %s", msg)
	}
	return errs.InvalidFields(errs.FieldError{Property: property, Message: msg})
}

// sentKind says what was sent instead: the number or string itself when it
// is short, else its kind.
func sentKind(serr *json.SemanticError) string {
	if len(serr.JSONValue) > 0 && len(serr.JSONValue) <= 40 {
		return string(serr.JSONValue)
	}
	switch serr.JSONKind {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "that"
}

func jsonType(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.Kind().String()
}
