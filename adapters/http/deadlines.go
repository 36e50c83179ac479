package http

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/shopstock/inventory/domain/errs"
)

// Defaults of Config's deadlines for slow clients.
const (
	// DefaultBodyTimeout is how long the whole body of a request read
	// before any credentials are checked (the console's sign-in) may take
	// to arrive.
	DefaultBodyTimeout = 10 * time.Second
	// DefaultBodyIdleTimeout is how long a request body may bring nothing
	// before the request is dropped.
	DefaultBodyIdleTimeout = 10 * time.Second
	// DefaultUploadTimeout is how long the whole body of an authenticated
	// request may take to arrive.
	DefaultUploadTimeout = 60 * time.Second
	// DefaultWriteTimeout is how long each write of an answer may take: a
	// client that stops reading is cut off after it.
	DefaultWriteTimeout = 30 * time.Second
)

// UnauthenticatedBodies is what a mounted adapter implements when some of
// its routes read a body before they check any credentials: each route,
// "METHOD /path", with the most bytes its body may have. Such a body is
// read whole, under the body deadline, before the request takes a slot of
// the in-flight limit, so that a client without credentials that sends it
// slowly holds no slot.
type UnauthenticatedBodies interface {
	UnauthenticatedBodies() map[string]int64
}

// readBodyFirst reads the body of an unauthenticated route into memory,
// within max bytes and the body deadline, and gives the request that body.
// It holds no slot of the in-flight limit while it waits: what bounds it
// is the deadline and the size, like the server's bounds on headers.
func (h *Handler) readBodyFirst(w http.ResponseWriter, r *http.Request, max int64) error {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.cfg.BodyTimeout))
	body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	if err != nil {
		// The connection is closed after the answer: what is left of the
		// body cannot be told from the next request.
		w.Header().Set("Connection", "close")
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return &protocolError{status: http.StatusRequestTimeout,
				message: fmt.Sprintf("the request body did not arrive within %v", h.cfg.BodyTimeout)}
		}
		return errs.Invalidf("cannot read request body: %v", err)
	}
	if int64(len(body)) > max {
		w.Header().Set("Connection", "close")
		return &protocolError{status: http.StatusRequestEntityTooLarge,
			message: fmt.Sprintf("request body is larger than %d bytes", max)}
	}
	// The body is in: the server's own read deadline no longer matters to
	// this request, and one left set would cancel its context mid-way.
	_ = rc.SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}

// pushWriteDeadline gives the next write its own deadline on the
// connection: a long answer may take as long as it needs while the client
// keeps reading, and one that stops reading is cut off.
func (s *statusRecorder) pushWriteDeadline() {
	if s.rc != nil {
		_ = s.rc.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	}
}
