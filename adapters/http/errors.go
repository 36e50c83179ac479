package http

import (
	"errors"
	"net/http"
	"strconv"

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
	errs.Forbidden:   http.StatusForbidden,
	errs.Internal:    http.StatusInternalServerError,
}

// protocolError is a failure of the HTTP exchange itself (auth, method,
// media type, size), which the domain knows nothing about.
type protocolError struct {
	status     int
	message    string
	stale      bool // 401: the Digest nonce expired, the credentials were right
	retryAfter int  // 429: seconds until the client may try again
}

func (e *protocolError) Error() string { return e.message }

var (
	errUnauthorized     = &protocolError{status: http.StatusUnauthorized, message: "Invalid or missing auth"}
	errStale            = &protocolError{status: http.StatusUnauthorized, message: "Invalid or missing auth", stale: true}
	errNotFound         = &protocolError{status: http.StatusNotFound, message: "no such resource"}
	errMethod           = &protocolError{status: http.StatusMethodNotAllowed, message: "method not allowed"}
	errTooLarge         = &protocolError{status: http.StatusRequestEntityTooLarge, message: "request body is larger than 8 MiB"}
	errUnsupportedMedia = &protocolError{status: http.StatusUnsupportedMediaType, message: "request body must be application/json"}
)

// StatusClientClosedRequest counts a request whose client went away
// before its answer was ready (nginx's 499): no status of HTTP says that.
const StatusClientClosedRequest = 499

type errorBody struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	// Errors is []fieldError for a request body, []lineError for a file.
	Errors any `json:"errors,omitempty"`
}

type fieldError struct {
	Property string `json:"property"`
	Message  string `json:"message"`
}

type lineError struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// writeError answers with the status the error's kind calls for. Internal
// errors are logged with the request id and never shown to the client.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if timedOut(r) {
		// Whatever failed, it failed because the time was up: the work
		// was cancelled and its transaction rolled back.
		h.log.Warn("request timed out", zap.String("request_id", requestID(r.Context())), zap.Error(err))
		err = errTimedOut
	}
	var pe *protocolError
	if errors.As(err, &pe) {
		switch pe.status {
		case http.StatusUnauthorized:
			h.challenge(w, r, pe.stale)
		case http.StatusTooManyRequests:
			w.Header().Set("Retry-After", strconv.Itoa(pe.retryAfter))
		}
		writeJSON(w, pe.status, errorBody{Message: pe.message})
		return
	}
	if r.Context().Err() != nil {
		// The client hung up and what it asked for failed with it: nobody
		// reads the answer, and nothing failed on the service's side. 499
		// keeps it apart in the metrics.
		h.log.Debug("client closed request", zap.String("request_id", requestID(r.Context())), zap.String("error", err.Error()))
		w.WriteHeader(StatusClientClosedRequest)
		return
	}
	kind := errs.KindOf(err)
	status := statusOf[kind]
	body := errorBody{Message: "internal error, see the log for request " + requestID(r.Context())}
	if e, ok := errs.As(err); ok && kind != errs.Internal {
		body.Message = e.Message
		if len(e.Fields) > 0 {
			fields := make([]fieldError, len(e.Fields))
			for i, f := range e.Fields {
				fields[i] = fieldError{Property: f.Property, Message: f.Message}
			}
			body.Errors = fields
		}
		if len(e.Lines) > 0 {
			lines := make([]lineError, len(e.Lines))
			for i, l := range e.Lines {
				lines[i] = lineError{Line: l.Line, Message: l.Message}
			}
			body.Errors = lines
		}
		if body.Errors == nil && kind == errs.Invalid && e.Property != "" {
			// A rule broken by one property of the request (a warehouse
			// that names nothing) is a validation failure like a
			// malformed field: the client finds the property in errors.
			body.Errors = []fieldError{{Property: e.Property, Message: e.Message}}
		}
	}
	if kind == errs.Internal || kind == errs.Unavailable {
		h.log.Error("request failed", zap.String("request_id", requestID(r.Context())), zap.Error(err))
	}
	writeJSON(w, status, body)
}
