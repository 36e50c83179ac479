package test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	httpapi "github.com/shopstock/inventory/adapters/http"
)

// Uploads: a body arrives while its request holds no slot of the in-flight
// limit, after its credentials, role and (in the console) token are
// checked; a client that sends nothing for the idle deadline is dropped.
// These run on SQLite only, as the other slow-client tests: what they
// check is the HTTP server, not the storage.

const uploadsAuth = "Basic YWRtaW46c2VjcmV0LXRlc3Qta2V5LTAxMjM=" // admin:secret-test-key-0123

// consoleSession signs name in to the console at addr and returns the
// session's cookie (name=value) and the token of its forms.
func consoleSession(t *testing.T, addr, name, key string) (cookie, csrf string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &consoleClient{t: t, base: "http://" + addr, http: &http.Client{Jar: jar}}
	c.signIn(name, key)
	_, page := c.get("/console/stock")
	base, _ := url.Parse(c.base + "/console/")
	for _, ck := range jar.Cookies(base) {
		if ck.Name == "inventory_console_session" {
			cookie = ck.Name + "=" + ck.Value
		}
	}
	if cookie == "" {
		t.Fatal("no session cookie after signing in")
	}
	return cookie, hidden(t, page, "csrf")
}

// createAPIUser makes an API user in role and returns its key.
func createAPIUser(t *testing.T, addr, name, role string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/api/users", strings.NewReader(fmt.Sprintf(`{"name":%q,"role":%q}`, name, role)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", uploadsAuth)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var created struct {
		Data struct{ Key string } `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&created); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create user %s: %d %v", name, res.StatusCode, err)
	}
	return created.Data.Key
}

// upload is a request whose body is sent by the test, piece by piece: head
// is the request line and headers, first the body's beginning.
type upload struct {
	kind        string
	head, first string
}

// stalledUploads are n uploads of a body announced at 1 MiB, in turn an
// API JSON batch, an API CSV import and a console multipart post from the
// session (cookie, csrf).
func stalledUploads(n int, cookie, csrf string) []upload {
	const announced = 1 << 20
	out := make([]upload, n)
	for i := range out {
		switch i % 3 {
		case 0:
			out[i] = upload{kind: "JSON batch", first: `[{"articleDetailId": 1, "quantity": 1, `,
				head: fmt.Sprintf("PUT /api/stock/change/stalled-%d HTTP/1.1\r\nHost: inventory\r\nAuthorization: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", i, uploadsAuth, announced)}
		case 1:
			out[i] = upload{kind: "CSV import", first: "warehouseCode,binLocationCode,articleDetailNumber,quantity\nWH,",
				head: fmt.Sprintf("PUT /api/stock/import/set/stalled-%d HTTP/1.1\r\nHost: inventory\r\nAuthorization: %s\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n", i, uploadsAuth, announced)}
		default:
			const boundary = "stalledboundary"
			first := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + csrf + "\r\n" +
				"--" + boundary + "\r\nContent-Disposition: form-data; name=\"mode\"\r\n\r\nset\r\n" +
				"--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"stock.csv\"\r\nContent-Type: text/csv\r\n\r\n" +
				"warehouseCode,binLocationCode,articleDetailNumber,quantity\nWH,"
			out[i] = upload{kind: "console import", first: first,
				head: fmt.Sprintf("POST /console/stock/preview HTTP/1.1\r\nHost: inventory\r\nCookie: %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n", cookie, boundary, announced)}
		}
	}
	return out
}

// More stalled uploads than the in-flight limit (300 against the default
// 256) leave the API answering every request at once, and each is dropped
// with 408 once it has sent nothing for the idle deadline.
func TestStalledUploadsLeaveOthersServed(t *testing.T) {
	t.Parallel()
	const stalled, idle, trickle = 300, 2 * time.Second, 4 * time.Second
	addr, db := slowClientServer(t, httpapi.Config{BodyIdleTimeout: idle})
	seedLongExport(t, db, 1, 1)
	cookie, csrf := consoleSession(t, addr, "admin", "secret-test-key-0123")

	type drop struct {
		kind    string
		status  int
		err     error
		silence time.Duration // from just before the last byte was sent to the answer
	}
	drops := make(chan drop, stalled)
	for _, u := range stalledUploads(stalled, cookie, csrf) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		// last is taken before each write: the service cannot have read
		// a byte before it was sent, so the silence measured from last is
		// never shorter than the one the service waited out, however
		// late this goroutine runs after a write.
		var last atomic.Int64
		last.Store(time.Now().UnixNano())
		if _, err := io.WriteString(conn, u.head+u.first); err != nil {
			t.Fatal(err)
		}
		// A byte a second, within the idle deadline, while the probes
		// run; then nothing.
		go func() {
			for end := time.Now().Add(trickle); time.Now().Before(end); {
				time.Sleep(time.Second)
				last.Store(time.Now().UnixNano())
				if _, err := conn.Write([]byte("1")); err != nil {
					return
				}
			}
		}()
		go func() {
			_ = conn.SetReadDeadline(time.Now().Add(trickle + idle + 20*time.Second))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			d := drop{kind: u.kind, err: err, silence: time.Since(time.Unix(0, last.Load()))}
			if err == nil {
				d.status = res.StatusCode
				res.Body.Close()
			}
			drops <- d
		}()
	}

	// Every probe while the uploads trickle is answered at once. The
	// probes start once the uploads' heads are through their checks of
	// credentials and role: while those hold every slot, any request is
	// refused with 503 (as some uploads are, below).
	time.Sleep(500 * time.Millisecond)
	probes := 0
	for start := time.Now(); time.Since(start) < trickle-time.Second; probes++ {
		status, took := timedGet(t, addr, "/api/warehouses")
		if status != http.StatusOK || took > time.Second {
			t.Errorf("GET /api/warehouses beside %d stalled uploads: %d after %v, want 200 within a second", stalled, status, took)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%d probes answered beside %d stalled uploads", probes, stalled)

	// Each is dropped with 408 once it has sent nothing for the idle
	// deadline. An upload whose head came while the slots were all taken
	// by the others' checks of credentials and role (300 at once against
	// 256) is refused at once with 503, as any request then is; most get
	// in.
	dropped, refused := 0, 0
	for range stalled {
		d := <-drops
		switch {
		case d.err == nil && d.status == http.StatusServiceUnavailable && d.silence < idle:
			refused++
		case d.err != nil || d.status != http.StatusRequestTimeout:
			t.Errorf("stalled %s: %d (%v), want 408", d.kind, d.status, d.err)
		case d.silence < idle-100*time.Millisecond || d.silence > idle+3*time.Second:
			t.Errorf("stalled %s: dropped after %v of silence, want about %v", d.kind, d.silence, idle)
		default:
			dropped++
		}
	}
	t.Logf("%d stalled uploads dropped for their silence, %d refused while the slots were taken", dropped, refused)
	if dropped < stalled*2/3 {
		t.Errorf("%d of %d stalled uploads were dropped for their silence, want most", dropped, stalled)
	}
}

// sendSlowly sends the request head and then body in pieces, pause
// between them, and returns the answer and its body.
func sendSlowly(t *testing.T, addr, head string, body []byte, pieces int, pause time.Duration) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	size := (len(body) + pieces - 1) / pieces
	for rest := body; len(rest) > 0; {
		n := min(size, len(rest))
		if _, err := conn.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		if rest = rest[n:]; len(rest) > 0 {
			time.Sleep(pause)
		}
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// A body that keeps coming within the idle deadline is processed as any
// other, however long it takes, with the whole request timeout after it;
// one over its size bound still gets its 413.
func TestSlowUploadWithinDeadlineIsProcessed(t *testing.T) {
	t.Parallel()
	const idle, timeout = 3 * time.Second, 4 * time.Second
	addr, db := slowClientServer(t, httpapi.Config{BodyIdleTimeout: idle, RequestTimeout: timeout})
	seedLongExport(t, db, 1, 1)
	bin, sku := fmt.Sprintf("BIN-%060d", 1), fmt.Sprintf("SKU-%060d", 1)
	csv := []byte("warehouseCode,binLocationCode,articleDetailNumber,quantity\nWH," + bin + "," + sku + ",7\n")
	// Six pieces a second apart: longer than the idle deadline and the
	// request timeout, never silent for the first.
	const pieces, pause = 6, time.Second

	res, body := sendSlowly(t, addr, fmt.Sprintf("PUT /api/stock/import/set/slow-1 HTTP/1.1\r\nHost: inventory\r\nAuthorization: %s\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n", uploadsAuth, len(csv)), csv, pieces, pause)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `"lines":1`) {
		t.Errorf("a CSV import sent slowly: %d %s", res.StatusCode, body)
	}
	batch := []byte(`[{"articleDetailId": 1, "quantity": 3, "warehouse": {"code": "WH"}}]`)
	res, body = sendSlowly(t, addr, fmt.Sprintf("PUT /api/stock/change/slow-2 HTTP/1.1\r\nHost: inventory\r\nAuthorization: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", uploadsAuth, len(batch)), batch, pieces, pause)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `"success":true`) {
		t.Errorf("a JSON batch sent slowly: %d %s", res.StatusCode, body)
	}
	cookie, csrf := consoleSession(t, addr, "admin", "secret-test-key-0123")
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	_ = mw.WriteField("csrf", csrf)
	_ = mw.WriteField("mode", "change")
	fw, _ := mw.CreateFormFile("file", "stock.csv")
	_, _ = fw.Write(csv)
	_ = mw.Close()
	res, body = sendSlowly(t, addr, fmt.Sprintf("POST /console/stock/preview HTTP/1.1\r\nHost: inventory\r\nCookie: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", cookie, mw.FormDataContentType(), form.Len()), form.Bytes(), pieces, pause)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "Apply import") {
		t.Errorf("a console import sent slowly: %d\n%s", res.StatusCode, body)
	}
	var stock int
	if err := db.Bun().NewRaw("SELECT COALESCE(SUM(stock), 0) FROM stock_mappings").Scan(t.Context(), &stock); err != nil || stock != 10 {
		t.Errorf("stock after the slow import and batch: %d (%v), want 7 + 3", stock, err)
	}

	// Over the bounds: announced, or found as it arrives.
	tooLarge := func(method, path, contentType string, body io.Reader, length int64) (int, string) {
		req, _ := http.NewRequest(method, "http://"+addr+path, body)
		req.ContentLength = length
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Authorization", uploadsAuth)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer res.Body.Close()
		var b struct{ Message string }
		_ = json.NewDecoder(res.Body).Decode(&b)
		return res.StatusCode, b.Message
	}
	for _, tc := range []struct {
		path, contentType string
		size, length      int64
		message           string
	}{
		{"/api/stock/import/set/big-1", "text/csv", 32<<20 + 1, 32<<20 + 1, "request body is larger than 32 MiB"},
		{"/api/stock/import/set/big-2", "text/csv", 32<<20 + 1, -1, "request body is larger than 32 MiB"},
		{"/api/stock/change/big-3", "application/json", 8<<20 + 1, 8<<20 + 1, "request body is larger than 8 MiB"},
		{"/api/stock/change/big-4", "application/json", 8<<20 + 1, -1, "request body is larger than 8 MiB"},
	} {
		status, msg := tooLarge(http.MethodPut, tc.path, tc.contentType, io.LimitReader(repeatReader('1'), tc.size), tc.length)
		if status != http.StatusRequestEntityTooLarge || msg != tc.message {
			t.Errorf("%s, %d bytes (Content-Length %d): %d %q, want 413 %q", tc.path, tc.size, tc.length, status, msg, tc.message)
		}
	}
}

// repeatReader is an endless run of one byte.
type repeatReader byte

func (b repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// Console posts of 39 MB refused for their token or role are refused
// before their bodies are read: the answer comes while the client is still
// sending, and the service's memory hardly grows. What is measured is the
// heap (runtime.MemStats.HeapAlloc, sampled every 5 ms while the posts
// run, against its value after a collection before them): the service
// runs in this process, and a form read whole would lie there. The test
// runs alone (not parallel), so that no other test's heap counts.
func TestConsoleBadTokenPostsStayUnderMemory(t *testing.T) {
	const posts, size, bound = 10, 39 << 20, 100 << 20
	addr, _ := slowClientServer(t, httpapi.Config{})
	adminCookie, _ := consoleSession(t, addr, "admin", "secret-test-key-0123")
	readerCookie, readerCSRF := consoleSession(t, addr, "stocktaker", createAPIUser(t, addr, "stocktaker", "reader"))

	const boundary = "largeboundary"
	head := func(cookie, token string) string {
		preamble := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + token + "\r\n" +
			"--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"stock.csv\"\r\nContent-Type: text/csv\r\n\r\n"
		return fmt.Sprintf("POST /console/stock/preview HTTP/1.1\r\nHost: inventory\r\nCookie: %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n%s",
			cookie, boundary, len(preamble)+size+len("\r\n--"+boundary+"--\r\n"), preamble)
	}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()

	chunk := bytes.Repeat([]byte("WH,A-01,SKU-1,1\n"), 4096) // 64 KiB, sent again and again
	var wg sync.WaitGroup
	for i := range posts {
		// Half from an admin with a token of no session, half from a
		// reader, whose role may not import, with its own.
		who, req := "admin with a wrong token", head(adminCookie, "not-the-sessions-token")
		if i%2 == 1 {
			who, req = "reader", head(readerCookie, readerCSRF)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			var sent atomic.Int64
			writing := make(chan struct{})
			go func() {
				defer close(writing)
				if _, err := io.WriteString(conn, req); err != nil {
					return
				}
				for sent.Load() < size {
					n, err := conn.Write(chunk[:min(len(chunk), size-int(sent.Load()))])
					sent.Add(int64(n))
					if err != nil {
						return
					}
				}
			}()
			_ = conn.SetReadDeadline(time.Now().Add(60 * time.Second))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			atAnswer := sent.Load()
			if err != nil {
				t.Errorf("%s: no answer: %v", who, err)
				return
			}
			res.Body.Close()
			if res.StatusCode != http.StatusForbidden {
				t.Errorf("%s: %d, want 403", who, res.StatusCode)
			}
			if atAnswer >= size {
				t.Errorf("%s: answered only after the whole body of %d bytes was sent", who, atAnswer)
			}
			conn.Close()
			<-writing
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	grown := int64(peak.Load()) - int64(before.HeapAlloc)
	t.Logf("heap %d MB before, %d MB at its peak during %d posts of %d MB", before.HeapAlloc>>20, peak.Load()>>20, posts, size>>20)
	if grown > bound {
		t.Errorf("the heap grew by %d MB during %d refused posts of %d MB, want under %d MB", grown>>20, posts, size>>20, bound>>20)
	}
}
