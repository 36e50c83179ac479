package console

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/shopstock/inventory/adapters/spool"
)

const testToken = "the-sessions-token"

// countingBody counts what the form reader takes of a body.
type countingBody struct {
	r    io.Reader
	read int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

func (c *countingBody) Close() error { return nil }

// postForm runs readForm on a post of body with contentType (and header
// pairs), and tells what it returned and how much of the body it read.
func postForm(t *testing.T, upload bool, contentType string, body []byte, header ...string) (*http.Request, int, error) {
	t.Helper()
	h := &Handler{receiveBody: readNow}
	r := httptest.NewRequest(http.MethodPost, "/console/stock/preview", nil)
	counted := &countingBody{r: bytes.NewReader(body)}
	r.Body, r.ContentLength = counted, int64(len(body))
	r.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	err := h.readForm(httptest.NewRecorder(), r, testToken, upload)
	if r.MultipartForm != nil {
		t.Cleanup(func() { r.MultipartForm.RemoveAll() })
	}
	return r, counted.read, err
}

// multipartBody is a form of the given fields, in order; a field named
// "file" is a file of that content.
func multipartBody(fields ...string) (contentType string, body []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i] == "file" {
			fw, _ := mw.CreateFormFile("file", "stock.csv")
			_, _ = io.WriteString(fw, fields[i+1])
			continue
		}
		_ = mw.WriteField(fields[i], fields[i+1])
	}
	_ = mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

const urlencoded = "application/x-www-form-urlencoded"

// A form without a file is read whole, within 64 KiB, its token wherever
// it stands.
func TestSmallFormTakesItsTokenAnywhere(t *testing.T) {
	r, _, err := postForm(t, false, urlencoded, []byte("binId=7&csrf="+testToken+"&unset=1"))
	if err != nil || r.PostForm.Get("binId") != "7" || r.PostForm.Get("unset") != "1" {
		t.Errorf("a form with its token among its fields: %v %v", err, r.PostForm)
	}
	if _, _, err := postForm(t, false, urlencoded, []byte("binId=7&csrf=another")); !errors.Is(err, errBadToken) {
		t.Errorf("a wrong token: %v, want errBadToken", err)
	}
	if _, _, err := postForm(t, false, urlencoded, []byte("binId=7")); !errors.Is(err, errBadToken) {
		t.Errorf("no token: %v, want errBadToken", err)
	}
	ct, body := multipartBody("mode", "set", "csrf", testToken)
	if r, _, err := postForm(t, false, ct, body); err != nil || r.PostForm.Get("mode") != "set" {
		t.Errorf("a small multipart form: %v %v", err, r.PostForm)
	}
	big := []byte("csrf=" + testToken + "&pad=" + strings.Repeat("x", maxFormBytes))
	_, read, err := postForm(t, false, urlencoded, big)
	var tooLarge *http.MaxBytesError
	if !errors.As(err, &tooLarge) || read > maxFormBytes+1 {
		t.Errorf("a form over 64 KiB: %v after %d bytes, want MaxBytesError within %d", err, read, maxFormBytes+1)
	}
}

// An upload's token is its first field, checked before anything more of
// the body is read.
func TestUploadChecksItsTokenFirst(t *testing.T) {
	csv := strings.Repeat("WH,A-01,SKU-1,1\n", 200_000) // some 3 MB
	ct, body := multipartBody("csrf", testToken, "mode", "set", "file", csv)
	r, _, err := postForm(t, true, ct, body)
	if err != nil || r.PostForm.Get("mode") != "set" || r.PostForm.Get("csrf") != testToken {
		t.Fatalf("an upload with its token first: %v %v", err, r.PostForm)
	}
	f, _, err := r.FormFile("file")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, onDisk := f.(*os.File); !onDisk {
		t.Errorf("a file of %d bytes is held in memory, want it in a temporary file beyond %d", len(csv), spool.InMemory)
	}
	if got, _ := io.ReadAll(f); string(got) != csv {
		t.Errorf("the file reads back %d bytes, want %d", len(got), len(csv))
	}

	for _, tc := range []struct {
		what   string
		fields []string
	}{
		{"a wrong token", []string{"csrf", "another", "mode", "set", "file", csv}},
		{"the token after another field", []string{"mode", "set", "csrf", testToken, "file", csv}},
		{"no token", []string{"mode", "set", "file", csv}},
		{"a token longer than any", []string{"csrf", strings.Repeat("t", 2*maxTokenBytes), "file", csv}},
	} {
		ct, body := multipartBody(tc.fields...)
		_, read, err := postForm(t, true, ct, body)
		if !errors.Is(err, errBadToken) || read > 8<<10 {
			t.Errorf("multipart, %s: %v after %d of %d bytes, want errBadToken within 8 KiB", tc.what, err, read, len(body))
		}
	}

	form := url.Values{"mode": {"set"}, "csv": {csv}, "key": {"k"}}.Encode()
	r, _, err = postForm(t, true, urlencoded, []byte("csrf="+testToken+"&"+form))
	if err != nil || r.PostForm.Get("csv") != csv || r.PostForm.Get("key") != "k" {
		t.Errorf("the previewed file sent back, token first: %v (%d bytes of csv)", err, len(r.PostForm.Get("csv")))
	}
	for what, body := range map[string]string{
		"the token after another field": "mode=set&csrf=" + testToken + "&" + form,
		"a wrong token":                 "csrf=another&" + form,
		"a token longer than any":       "csrf=" + strings.Repeat("t", 2*maxTokenBytes) + "&" + form,
	} {
		_, read, err := postForm(t, true, urlencoded, []byte(body))
		if !errors.Is(err, errBadToken) || read > 4<<10 {
			t.Errorf("urlencoded, %s: %v after %d bytes, want errBadToken within 4 KiB", what, err, read)
		}
	}
}

// A token in the header is checked before any of the body is read, and the
// body needs none of its own then.
func TestTokenInHeader(t *testing.T) {
	ct, body := multipartBody("mode", "set", "file", "WH,A-01,SKU-1,1\n")
	if r, _, err := postForm(t, true, ct, body, csrfHeader, testToken); err != nil || r.PostForm.Get("mode") != "set" {
		t.Errorf("an upload with its token in the header: %v %v", err, r.PostForm)
	}
	if _, read, err := postForm(t, true, ct, body, csrfHeader, "another"); !errors.Is(err, errBadToken) || read != 0 {
		t.Errorf("a wrong token in the header: %v after %d bytes, want errBadToken before any", err, read)
	}
	if r, _, err := postForm(t, false, urlencoded, []byte("binId=7"), csrfHeader, testToken); err != nil || r.PostForm.Get("binId") != "7" {
		t.Errorf("a small form with its token in the header: %v %v", err, r.PostForm)
	}
}
