package http

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
)

// maxJSONDepth is how deeply a body may nest: each array or object opened
// inside another is one level deeper, the outermost is level 1.
const maxJSONDepth = 32

// checkJSONShape refuses a body nested deeper than maxJSONDepth or with an
// object that holds the same key twice (encoding/json would keep the last,
// the fingerprint and a reader of the log the first). It runs on every JSON
// body before anything decodes it, but for a batch body, which readBatch
// checks with shapeFault itself; a body that is not valid JSON passes, for
// the decoder to report.
func checkJSONShape(src []byte) error {
	fault, _ := shapeFault(src)
	if fault != nil && syntaxError(src, lenientText, jsontext.AllowDuplicateNames(true)) != nil {
		return nil
	}
	return fault
}

// shapeFault reads the JSON value src starts with, token by token, up to
// its first fault of shape: an array or object opened deeper than
// maxJSONDepth, or a key its object already holds (as the decoder compares
// keys: escapes resolved, bad UTF-8 read as U+FFFD). It stops there, so
// that a body nested thousands of levels deep costs no more than one of 33
// levels; what follows is not read and may be no JSON. Otherwise err is
// the fault of syntax that comes first, if any.
func shapeFault(src []byte) (fault, err error) {
	r := newObjectReader(src, lenientText)
	defer objectReaders.Put(r)
	for {
		tok, err := r.dec.ReadToken()
		if err != nil {
			var serr *jsontext.SyntacticError
			if errors.As(err, &serr) && errors.Is(serr.Err, jsontext.ErrDuplicateName) {
				return errs.Invalidf("malformed JSON: an object holds the key %q twice", serr.JSONPointer.LastToken()), nil
			}
			return nil, err
		}
		if k := tok.Kind(); (k == '{' || k == '[') && r.dec.StackDepth() > maxJSONDepth {
			return errs.Invalidf("request body is nested deeper than %d levels", maxJSONDepth), nil
		}
		if r.dec.StackDepth() == 0 {
			return nil, nil
		}
	}
}

// textProblem finds the first string (key or value) in the valid JSON value
// raw that breaks the text rules of domain/code: it is not valid UTF-8 (as
// sent: bad bytes, or an escaped surrogate without its other half), or it
// holds a control character (U+0000–U+001F, U+007F; tab, line feed and
// carriage return are allowed in code.MultilineProperties). It is what
// keeps U+0000 out of the databases, which store no NUL character (drivers
// cut statements at it). It returns the property path of the offence
// (`details[0].status`, prefixed by path when path is not empty) and what
// is wrong with it; found is false when every string is fine. The batch
// readers call it per operation (see operationTextProblem); decodeStrict
// for every other body.
func textProblem(raw []byte, path string) (property, message string, found bool) {
	if plainASCII(raw) {
		return "", "", false
	}
	r := newObjectReader(raw, lenientText, jsontext.AllowDuplicateNames(true))
	defer func() {
		if cap(r.text) > 1<<16 {
			r.text = nil // a pooled reader holds no long text
		}
		objectReaders.Put(r)
	}()
	dec := &r.dec
	for {
		switch dec.PeekKind() {
		case 0:
			return "", "", false
		case '"':
		default:
			if _, err := dec.ReadToken(); err != nil {
				return "", "", false
			}
			continue
		}
		quoted, err := dec.ReadValue()
		if err != nil {
			return "", "", false
		}
		if plainASCII(quoted) {
			continue
		}
		kind, length := dec.StackIndex(dec.StackDepth())
		isName := kind == '{' && length%2 == 1
		// Unquoting reads bad UTF-8 and a lone surrogate as U+FFFD, with
		// an error. The text may be as long as it is: the bound on
		// characters is for the use case to check.
		r.text, err = jsontext.AppendUnquote(r.text[:0], quoted)
		text := r.text
		if err != nil {
			message = code.NotUTF8Message
		} else if !isName && isScan(stringPath(dec, path, nil)) && code.CheckScan(string(text), len(text)) == nil {
			continue
		} else if err := code.CheckMultiline(string(text), len(text)); err != nil {
			message = err.Error()
		} else if err := code.CheckText(string(text), len(text)); err != nil && (isName || !isMultiline(stringPath(dec, path, nil))) {
			message = err.Error()
		} else {
			continue
		}
		if isName {
			return "property name " + strconv.QuoteToASCII(propertyName(stringPath(dec, path, quoted))), message, true
		}
		return propertyName(stringPath(dec, path, nil)), message, true
	}
}

// stringPath is the property path of the string dec read last, after
// prefix: `details[0].status`. The key of an object is written as sent
// when name (its token) is given, for a key that may be no valid UTF-8.
func stringPath(dec *jsontext.Decoder, prefix string, name []byte) string {
	var b strings.Builder
	b.WriteString(prefix)
	depth, level := dec.StackDepth(), 0
	for tok := range dec.StackPointer().Tokens() {
		level++
		if kind, _ := dec.StackIndex(level); kind == '[' {
			b.WriteString("[" + tok + "]")
			continue
		}
		if name != nil && level == depth {
			tok = memberName(name)
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// operationTextProblem checks the strings of one batch operation, except
// its free-form `id`, and returns an error naming the property, or nil.
// The same operation always names the same property: the fault in the
// field whose name sorts first.
func operationTextProblem(fields jsonFields) error {
	var first *jsonField
	var property, message string
	for i := range fields {
		f := &fields[i]
		if f.name == "id" || first != nil && f.name >= first.name {
			continue
		}
		if p, msg, found := textProblem(f.value, f.name); found {
			first, property, message = f, p, msg
		}
	}
	if first == nil {
		return nil
	}
	return fmt.Errorf("%s %s", property, message)
}

func propertyName(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

// isMultiline tells whether the property at path is one that may span lines.
func isMultiline(path string) bool {
	last := path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		last = path[i+1:]
	}
	return slices.Contains(code.MultilineProperties, last)
}
