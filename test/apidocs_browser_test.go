package test

import (
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/shopstock/inventory/test/testdb"
)

// TestAPIReferenceRendersFromTheServiceAlone opens /api/docs in a real
// browser: Redoc renders the OpenAPI document, every request of the page
// goes to the service itself, and the page's Content-Security-Policy
// stops nothing, so the viewer needs nothing it forbids.
func TestAPIReferenceRendersFromTheServiceAlone(t *testing.T) {
	base := consoleService(t, testdb.SQLite(t))
	b := newBrowser(t, base)

	var mu sync.Mutex
	var requests, problems []string
	if err := chromedp.Listen(b.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			// Sent also for what the policy then blocks.
			requests = append(requests, e.Request.URL)
		case *log.EventEntryAdded: // policy violations, failed loads
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, string(e.Entry.Source)+": "+e.Entry.Text)
			}
		case *runtime.EventExceptionThrown:
			text := e.ExceptionDetails.Text
			if x := e.ExceptionDetails.Exception; x != nil {
				text += " " + x.Description
			}
			problems = append(problems, "exception: "+text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, "console "+string(e.Type)+": "+strings.Join(args, " "))
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	// What the page did is the diagnosis when it did not render.
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			defer mu.Unlock()
			t.Logf("requests: %q\nproblems: %q", requests, problems)
		}
	})

	operation := `[id$="operation/listWarehouses"]`
	b.run("open /api/docs", chromedp.Navigate(base+"/api/docs"), chromedp.WaitReady(chromedp.CSS(operation)))
	b.shot("api-reference")
	if got := b.text(operation + " h2"); got != "List warehouses" {
		t.Errorf("the warehouses' list is titled %q", got)
	}
	if got := b.text(operation); !strings.Contains(got, "/api/warehouses") {
		t.Errorf("the warehouses' list does not show its path: %q", got)
	}
	if got := b.text("h1"); !strings.Contains(got, "Inventory service") {
		t.Errorf("the reference is titled %q", got)
	}

	mu.Lock()
	defer mu.Unlock()
	fetched := map[string]bool{}
	for _, u := range requests {
		switch {
		case strings.HasPrefix(u, base+"/"):
			fetched[strings.TrimPrefix(u, base)] = true
		case strings.HasPrefix(u, "data:"), strings.HasPrefix(u, "blob:"+base+"/"):
			// made in the page, nothing leaves it
		default:
			t.Errorf("the page asked another host: %s", u)
		}
	}
	for _, path := range []string{"/api/docs", "/api/docs/redoc.standalone.js", "/api/openapi.json"} {
		if !fetched[path] {
			t.Errorf("the page did not load %s (it loaded %v)", path, fetched)
		}
	}
	for _, p := range problems {
		t.Errorf("the page reported: %s", p)
	}
}
