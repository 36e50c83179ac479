package http

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/shopstock/inventory/adapters/spool"
	"github.com/shopstock/inventory/domain/errs"
)

// A request's body arrives while the request holds no slot of the in-flight
// limit and its own deadline does not run: a client that sends slowly costs
// a connection and a little memory, never the service's capacity. The
// slot is taken back, and the deadline starts anew, once the body is in.

// admission is a request's hold on the in-flight limit and its deadline.
// One goroutine, the request's, uses it.
type admission struct {
	h *Handler
	// limited: the route counts against the in-flight limit.
	limited bool
	// release gives the slot back; nil while the request holds none.
	release func()
	// deadline cancels the request when it fires.
	deadline *time.Timer
	// cause is the request context's cancel.
	cause context.CancelCauseFunc
	rc    *http.ResponseController
}

type admissionKey struct{}

func admissionOf(ctx context.Context) *admission {
	a, _ := ctx.Value(admissionKey{}).(*admission)
	return a
}

// admit takes a slot, if the route counts against the limit; false: the
// service is full.
func (a *admission) admit() bool {
	if !a.limited || a.release != nil {
		return true
	}
	release, ok := a.h.admit()
	a.release = release
	return ok
}

// end gives back what the request holds.
func (a *admission) end() {
	a.deadline.Stop()
	if a.release != nil {
		a.release()
		a.release = nil
	}
	a.cause(nil)
}

// receive lets read read the request's body while the request holds no
// slot and its deadline is stopped. Each read of the body must bring
// something within the idle deadline and the whole body must be in within
// the upload deadline, or the body fails with 408. Once read has returned,
// the request takes a slot again (503 when there is none) and its deadline
// starts anew. An error leaves the rest of the body unread, so the
// connection is closed after the answer.
func (h *Handler) receive(w http.ResponseWriter, r *http.Request, read func(body io.Reader) error) error {
	a := admissionOf(r.Context())
	if a == nil {
		// A request that did not come through ServeHTTP holds no slot
		// and has no deadline to hold back.
		return read(r.Body)
	}
	if !a.deadline.Stop() {
		// The request's time ran out before its body was asked for.
		return errTimedOut
	}
	if a.release != nil {
		a.release()
		a.release = nil
	}
	body := &arrivingBody{body: r.Body, rc: a.rc, idle: h.cfg.BodyIdleTimeout, upload: h.cfg.UploadTimeout,
		until: time.Now().Add(h.cfg.UploadTimeout)}
	err := read(body)
	if body.err != nil {
		err = body.err
	}
	if err == nil && !body.eof && r.Body != http.NoBody {
		// What read left of the body would be drained after the answer
		// with no deadline: a little is read now, under the body's own,
		// and a body with more than that closes the connection instead.
		if _, drainErr := io.CopyN(io.Discard, body, 4<<10); drainErr != io.EOF {
			w.Header().Set("Connection", "close")
		}
	}
	// The body is in (or failed): the deadline a read left set must not
	// cut the connection's later reads, which tell a client that went away.
	_ = a.rc.SetReadDeadline(time.Time{})
	_ = a.rc.SetWriteDeadline(time.Now().Add(h.cfg.RequestTimeout + h.cfg.WriteTimeout))
	if err != nil {
		w.Header().Set("Connection", "close")
		return err
	}
	a.deadline.Reset(h.cfg.RequestTimeout)
	if !a.admit() {
		w.Header().Set("Retry-After", "1")
		return errBusy
	}
	return nil
}

// arrivingBody reads a request body under the idle and the upload
// deadline; once one has passed, every read fails with its 408.
type arrivingBody struct {
	body         io.Reader
	rc           *http.ResponseController
	idle, upload time.Duration
	until        time.Time
	// err is the 408 once a deadline has passed; eof: the body has ended.
	err error
	eof bool
}

func (b *arrivingBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	deadline, whole := time.Now().Add(b.idle), false
	if b.until.Before(deadline) {
		deadline, whole = b.until, true
	}
	_ = b.rc.SetReadDeadline(deadline)
	n, err := b.body.Read(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		b.err = &protocolError{status: http.StatusRequestTimeout,
			message: fmt.Sprintf("nothing of the request body arrived for %v", b.idle)}
		if whole {
			b.err = &protocolError{status: http.StatusRequestTimeout,
				message: fmt.Sprintf("the request body did not arrive within %v", b.upload)}
		}
		return n, b.err
	}
	b.eof = b.eof || err == io.EOF
	return n, err
}

// StatusCode is the HTTP status the error answers with, for the adapters
// mounted inside this one, which answer in their own shape.
func (e *protocolError) StatusCode() int { return e.status }

// bodyLimit is how large a route's body may be, the answer beyond, and
// what the route checks of the request before its body is read.
type bodyLimit struct {
	max      int64
	tooLarge error
	check    func(*http.Request) error
}

// jsonBody is the limit of every API body but the routes' in bodyLimits.
var jsonBody = bodyLimit{max: maxBodyBytes, tooLarge: errTooLarge}

// bodyLimits are the API's routes whose bodies are not JSON.
var bodyLimits = map[string]bodyLimit{
	"PUT /api/stock/import/{mode}/{idempotencyKey}": {max: maxCSVBytes, tooLarge: errCSVTooLarge, check: checkImport},
}

// hasBody tells whether the request comes with a body its handler reads:
// only posts and puts do (patches too, should a route take them); any
// other method's body is left to the server, which drains or drops it.
func hasBody(r *http.Request) bool {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
	}
	return false
}

// receiveBody reads the body of an API request whole (receive), within the
// route's limit, and gives the request that body; the caller closes it
// after the request. A body announced larger than the limit is refused
// before any of it is read.
func (h *Handler) receiveBody(w http.ResponseWriter, r *http.Request, pattern string) (*spool.Body, error) {
	limit, ok := bodyLimits[pattern]
	if !ok {
		limit = jsonBody
	}
	if limit.check != nil {
		if err := limit.check(r); err != nil {
			w.Header().Set("Connection", "close")
			return nil, err
		}
	}
	if r.ContentLength > limit.max {
		w.Header().Set("Connection", "close")
		return nil, limit.tooLarge
	}
	var body *spool.Body
	err := h.receive(w, r, func(src io.Reader) error {
		var err error
		body, err = spool.Read(src, limit.max, r.ContentLength)
		switch {
		case errors.Is(err, spool.ErrTooLarge):
			return limit.tooLarge
		case err != nil:
			var pe *protocolError
			if errors.As(err, &pe) {
				return err
			}
			return errs.Invalidf("cannot read request body: %v", err)
		}
		return nil
	})
	if err != nil {
		if body != nil {
			body.Close()
		}
		return nil, err
	}
	r.Body = body
	return body, nil
}
