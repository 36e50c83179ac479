package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"

	"github.com/shopstock/inventory/adapters/spool"
	"github.com/shopstock/inventory/domain/errs"
)

const maxBodyBytes = 8 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"success":false,"message":"internal error"}`)
	}
	writeRaw(w, status, body)
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

type success struct {
	Success bool `json:"success"`
}

var ok = success{Success: true}

// readBody returns the request body, checked for media type, size, depth
// and repeated keys. An empty body is returned as nil.
func readBody(r *http.Request, w http.ResponseWriter) ([]byte, error) {
	body, err := readRawBody(r, w)
	if err != nil || body == nil {
		return body, err
	}
	if err := checkJSONShape(body); err != nil {
		return nil, err
	}
	return body, nil
}

// readRawBody is readBody without the checks of JSON shape, for readers
// that make them in their own pass.
func readRawBody(r *http.Request, w http.ResponseWriter) ([]byte, error) {
	body, err := rawBody(r, w)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return nil, errUnsupportedMedia
	}
	return body, nil
}

// rawBody is the request's body: as the spool holds it when it arrived
// whole in memory (receiveBody), read otherwise.
func rawBody(r *http.Request, w http.ResponseWriter) ([]byte, error) {
	if spooled, ok := r.Body.(*spool.Body); ok {
		if body, whole := spooled.Bytes(); whole && int64(len(body)) <= maxBodyBytes {
			return body, nil
		}
	}
	// A body that announces its length is read into one buffer of that
	// size, not grown by doubling.
	var buf bytes.Buffer
	if r.ContentLength > 0 && r.ContentLength <= maxBodyBytes {
		buf.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxBodyBytes)); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errTooLarge
		}
		return nil, errs.Invalidf("cannot read request body: %v", err)
	}
	return buf.Bytes(), nil
}

func valueOrZero[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// decode reads a JSON object body strictly into dst and checks its
// validator tags: every create and update endpoint starts this way.
func (h *Handler) decode(w http.ResponseWriter, r *http.Request, dst any, readOnly ...string) error {
	raw, err := readBody(r, w)
	if err != nil {
		return err
	}
	if err := decodeStrict(raw, dst, readOnly...); err != nil {
		return err
	}
	return h.validate(dst)
}

// validate checks the validator tags of a decoded body.
func (h *Handler) validate(v any) error {
	err := h.validator.Struct(v)
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return errs.Invalidf("invalid request: %v", err)
	}
	fields := make([]errs.FieldError, 0, len(verrs))
	for _, fe := range verrs {
		fields = append(fields, errs.FieldError{Property: propertyPath(fe.Namespace()), Message: validationMessage(fe)})
	}
	return errs.InvalidFields(fields...)
}

// propertyPath drops the struct name validator puts first.
func propertyPath(ns string) string {
	if i := strings.IndexByte(ns, '.'); i >= 0 {
		return ns[i+1:]
	}
	return ns
}

func validationMessage(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "max":
		if fe.Kind() == reflect.String {
			return "must be at most " + fe.Param() + " characters"
		}
		return "must be at most " + fe.Param()
	case "min":
		if fe.Kind() == reflect.String {
			return "must be at least " + fe.Param() + " characters"
		}
		return "must be at least " + fe.Param()
	case "id":
		return fmt.Sprintf("must be an id from 1 to %d", maxID)
	case "lte":
		return "must be at most " + fe.Param()
	case "gt":
		return "must be greater than " + fe.Param()
	case "gte":
		return "must be at least " + fe.Param()
	case "email":
		return "must be an email address"
	case "oneof":
		return "must be one of " + fe.Param()
	}
	return "is invalid (" + fe.Tag() + ")"
}

func newValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	// Ids are 32-bit in both databases.
	_ = v.RegisterValidation("id", func(fl validator.FieldLevel) bool {
		f := fl.Field()
		return f.CanInt() && f.Int() >= 1 && f.Int() <= maxID
	})
	return v
}
