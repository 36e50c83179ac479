package console

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"

	"github.com/shopstock/inventory/adapters/spool"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
)

// A post is read only after its session and role are checked, and its
// token before the rest of its body: a post without the right to be made
// costs no more than its first field. The body arrives outside the
// in-flight limit (receiveBody).

const (
	// maxFormBytes bounds a form that carries no file.
	maxFormBytes = 64 << 10
	// maxUploadBytes bounds an upload: a CSV import of 100 000 lines, with
	// room.
	maxUploadBytes = 40 << 20
	// maxTokenBytes bounds the field that carries the form's token.
	maxTokenBytes = 1 << 10
	// csrfHeader carries the form's token for a client that sends it
	// beside the body rather than in it.
	csrfHeader = "X-CSRF-Token"
)

// uploads are the posts that carry a file: the import's preview (the file
// as a multipart part) and the import (the previewed file sent back in a
// field). Their token must come first (the header, else the body's first
// field), so that it is checked before the file is read.
var uploads = map[string]bool{"POST /console/stock/preview": true, "POST /console/stock/import": true}

var (
	errBadToken   = errors.New("the form carries no valid security token")
	errUnreadable = errors.New("the form could not be read")
)

// ReceiveBodiesWith is how the HTTP adapter the console is mounted in
// reads the bodies of its posts: outside the in-flight limit, under the
// idle and upload deadlines (see httpapi.BodyReceiver).
func (h *Handler) ReceiveBodiesWith(receive func(w http.ResponseWriter, r *http.Request, read func(body io.Reader) error) error) {
	h.receiveBody = receive
}

// readNow is how a console that no HTTP adapter mounts reads a body: as it
// comes.
func readNow(_ http.ResponseWriter, r *http.Request, read func(body io.Reader) error) error {
	return read(r.Body)
}

// post serves a form post of a signed-in user: it checks the session and
// that the role may do need (none: any signed-in user) before any of the
// body is read, then the form's token (an upload's before the rest of its
// body), and hands fn the form. Anything refused closes the connection,
// which may still hold an unread body.
func (h *Handler) post(pattern string, need access.Action, fn func(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error) {
	upload := uploads[pattern]
	h.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		u, err := h.user(w, r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if u == nil {
			w.Header().Set("Connection", "close")
			h.forbidden(w, r, "you are not signed in (or your session has ended); sign in again")
			return
		}
		if need != "" && !may(u, need) {
			w.Header().Set("Connection", "close")
			h.forbidden(w, r, "your role ("+string(u.Role)+") may not "+string(need))
			return
		}
		r = h.notesWrites(w, r.WithContext(signedIn(r.Context(), u)))
		err = h.readForm(w, r, u.CSRFToken, upload)
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
		if err != nil {
			h.refuseForm(w, r, err, upload)
			return
		}
		if h.refusedParameters(w, r, "field", r.PostForm) {
			return
		}
		if err := fn(w, r, u); err != nil {
			h.fail(w, r, err)
		}
	})
}

// refuseForm answers a post whose form was not read.
func (h *Handler) refuseForm(w http.ResponseWriter, r *http.Request, err error, upload bool) {
	w.Header().Set("Connection", "close")
	var tooLarge *http.MaxBytesError
	var status interface{ StatusCode() int }
	switch {
	case errors.Is(err, errBadToken):
		h.forbidden(w, r, "the form carries no valid security token; reload the page and try again")
	case errors.As(err, &tooLarge), errors.Is(err, multipart.ErrMessageTooLarge):
		if upload {
			http.Error(w, "413 the upload is larger than 40 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "413 the form is larger than 64 KiB", http.StatusRequestEntityTooLarge)
	case errors.As(err, &status):
		// The body did not arrive in time, or the service is full.
		h.errorPage(w, r, status.StatusCode(), err.Error())
	default:
		h.forbidden(w, r, "the form could not be read")
	}
}

// readForm reads the post's form into r.PostForm (and r.MultipartForm,
// whose files beyond spool.InMemory bytes lie in temporary files until
// RemoveAll), after checking its token against want.
func (h *Handler) readForm(w http.ResponseWriter, r *http.Request, want string, upload bool) error {
	max := int64(maxFormBytes)
	if upload {
		max = maxUploadBytes
	}
	tokenFirst := upload
	if sent := r.Header.Get(csrfHeader); sent != "" {
		if !validToken(sent, want) {
			return errBadToken
		}
		tokenFirst = false
	}
	tokenInBody := r.Header.Get(csrfHeader) == ""
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var rest *spool.Body
	err := h.receiveBody(w, r, func(body io.Reader) error {
		body = http.MaxBytesReader(w, io.NopCloser(body), max)
		switch {
		case mt == "multipart/form-data" && params["boundary"] != "":
			return readMultipart(r, multipart.NewReader(body, params["boundary"]), want, tokenFirst, max)
		case mt == "application/x-www-form-urlencoded" && tokenFirst:
			first := bufio.NewReaderSize(body, maxTokenBytes)
			if err := readTokenField(first, want); err != nil {
				return err
			}
			if r.ContentLength > max {
				return &http.MaxBytesError{Limit: max}
			}
			return spoolRest(&rest, first, max)
		case mt == "application/x-www-form-urlencoded":
			return spoolRest(&rest, body, max)
		}
		// A body of another kind carries no form.
		return nil
	})
	if err != nil {
		if rest != nil {
			rest.Close()
		}
		return err
	}
	r.Body = http.NoBody
	if r.PostForm == nil {
		r.PostForm = url.Values{}
	}
	if rest != nil {
		err := parseRest(r, rest)
		rest.Close()
		if err != nil {
			return err
		}
	}
	if tokenFirst {
		r.PostForm.Set("csrf", want)
		return nil
	}
	if tokenInBody && !validToken(r.PostForm.Get("csrf"), want) {
		return errBadToken
	}
	return nil
}

// readMultipart reads a multipart form: its token first, when it must come
// first, then the rest, files beyond spool.InMemory bytes into temporary
// files.
func readMultipart(r *http.Request, mr *multipart.Reader, want string, tokenFirst bool, max int64) error {
	if tokenFirst {
		part, err := mr.NextPart()
		if err != nil {
			return tokenError(err)
		}
		if part.FormName() != "csrf" || part.FileName() != "" {
			return errBadToken
		}
		sent, err := io.ReadAll(io.LimitReader(part, maxTokenBytes+1))
		if err != nil {
			return tokenError(err)
		}
		if !validToken(string(sent), want) {
			return errBadToken
		}
		if r.ContentLength > max {
			return &http.MaxBytesError{Limit: max}
		}
	}
	form, err := mr.ReadForm(spool.InMemory)
	if err != nil {
		return readError(err)
	}
	r.MultipartForm = form
	r.PostForm = url.Values(form.Value)
	return nil
}

// readTokenField reads a urlencoded body's first field, which must be the
// form's token, and leaves body at the next field.
func readTokenField(body *bufio.Reader, want string) error {
	field, err := body.ReadSlice('&')
	if err != nil && !errors.Is(err, io.EOF) {
		return tokenError(err)
	}
	name, value, _ := strings.Cut(string(bytes.TrimSuffix(field, []byte("&"))), "=")
	sent, unescapeErr := url.QueryUnescape(value)
	if name != "csrf" || unescapeErr != nil || !validToken(sent, want) {
		return errBadToken
	}
	return nil
}

// spoolRest reads what is left of a urlencoded body into *rest, in memory
// or, beyond spool.InMemory bytes, in a temporary file.
func spoolRest(rest **spool.Body, body io.Reader, max int64) error {
	var err error
	*rest, err = spool.Read(body, max, -1)
	if errors.Is(err, spool.ErrTooLarge) {
		return &http.MaxBytesError{Limit: max}
	}
	return err
}

// parseRest reads the fields of a urlencoded body that has arrived whole.
func parseRest(r *http.Request, rest *spool.Body) error {
	var b strings.Builder
	b.Grow(int(rest.Size()))
	if _, err := io.Copy(&b, rest); err != nil {
		return err
	}
	values, err := url.ParseQuery(b.String())
	if err != nil {
		return fmt.Errorf("%w: %v", errUnreadable, err)
	}
	for name, vs := range values {
		r.PostForm[name] = append(r.PostForm[name], vs...)
	}
	return nil
}

// tokenError is what reading the token failed with: a field longer than a
// token can be is no token; a failure of the body itself stays what it is.
func tokenError(err error) error {
	if errors.Is(err, bufio.ErrBufferFull) {
		return errBadToken
	}
	return readError(err)
}

// readError keeps what the body's reader tells (too large, too late) and
// makes any other failure an unreadable form.
func readError(err error) error {
	var tooLarge *http.MaxBytesError
	var status interface{ StatusCode() int }
	if errors.As(err, &tooLarge) || errors.Is(err, multipart.ErrMessageTooLarge) || errors.As(err, &status) {
		return err
	}
	return fmt.Errorf("%w: %v", errUnreadable, err)
}

// validToken compares a sent token with the session's in constant time.
func validToken(sent, want string) bool {
	return sent != "" && subtle.ConstantTimeCompare([]byte(sent), []byte(want)) == 1
}
