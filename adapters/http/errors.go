package http

import (
	"errors"
	"net/http"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/domain/errs"
)

// statusOf is the one table that turns the service's error kinds into HTTP
// status codes.
var statusOf = map[errs.Kind]int{
	errs.Invalid:     http.StatusBadRequest,
	errs.NotFound:    http.StatusNotFound,
	errs.Conflict:    http.StatusConflict,
	errs.Unavailable: http.StatusServiceUnavailable,
	errs.Gone:        http.StatusGone,
	errs.Internal:    http.StatusInternalServerError,
}

// protocolError is a failure of the HTTP exchange itself (auth, method,
// media type, size), which the domain knows nothing about.
type protocolError struct {
	status  int
	message string
}

func (e *protocolError) Error() string { return e.message }

var (
	errUnauthorized     = &protocolError{http.StatusUnauthorized, "Invalid or missing auth"}
	errNotFound         = &protocolError{http.StatusNotFound, "no such resource"}
	errMethod           = &protocolError{http.StatusMethodNotAllowed, "method not allowed"}
	errTooLarge         = &protocolError{http.StatusRequestEntityTooLarge, "request body is larger than 8 MiB"}
	errUnsupportedMedia = &protocolError{http.StatusUnsupportedMediaType, "request body must be application/json"}
)

type errorBody struct {
	Success bool         `json:"success"`
	Message string       `json:"message"`
	Errors  []fieldError `json:"errors,omitempty"`
}

type fieldError struct {
	Property string `json:"property"`
	Message  string `json:"message"`
}

// writeError answers with the status the error's kind calls for. Internal
// errors are logged with the request id and never shown to the client.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var pe *protocolError
	if errors.As(err, &pe) {
		if pe.status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Basic realm="Inventory REST-API"`)
		}
		writeJSON(w, pe.status, errorBody{Message: pe.message})
		return
	}
	kind := errs.KindOf(err)
	status := statusOf[kind]
	body := errorBody{Message: "internal error, see the log for request " + requestID(r.Context())}
	if e, ok := errs.As(err); ok && kind != errs.Internal {
		body.Message = e.Message
		for _, f := range e.Fields {
			body.Errors = append(body.Errors, fieldError{Property: f.Property, Message: f.Message})
		}
	}
	if kind == errs.Internal || kind == errs.Unavailable {
		h.log.Error("request failed", zap.String("request_id", requestID(r.Context())), zap.Error(err))
	}
	writeJSON(w, status, body)
}
