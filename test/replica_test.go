package test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Reads from a hot standby: each test starts its own primary and standby
// (testdb.StartReplicated) and services on them with
// INVENTORY_DATABASE_REPLICA_URL, and pauses the standby's replay
// (pg_wal_replay_pause) to make it lag, or stops it.

// replicaClient calls the API as one user.
type replicaClient struct{ base, user, key string }

// send makes a request, with the position header when position is not
// empty, and returns the status, the headers and the decoded body.
func (c replicaClient) send(t testing.TB, method, path string, body any, position string) (int, http.Header, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if position != "" {
		req.Header.Set("X-Inventory-Position", position)
	}
	req.SetBasicAuth(c.user, c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, resp.Header, out
}

// stock is the product's physicalStock as a GET answers it.
func (c replicaClient) stock(t testing.TB, article int64, position string) int {
	t.Helper()
	status, _, body := c.send(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil, position)
	if status != http.StatusOK {
		t.Fatalf("GET the product as %s: %d %v", c.user, status, body)
	}
	return int(body["data"].(map[string]any)["physicalStock"].(float64))
}

// readMetrics are the replica's figures on the instance's /metrics.
type readMetrics struct {
	primary, replica float64
	usable           bool
	lag              float64
}

func replicaMetrics(t testing.TB, base string) readMetrics {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m readMetrics
	m.lag = -1
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		name, value, _ := strings.Cut(line, " ")
		v, _ := strconv.ParseFloat(value, 64)
		switch {
		case name == `inventory_database_reads_total{target="primary"}`:
			m.primary = v
		case strings.HasPrefix(name, "inventory_database_reads_total{"):
			m.replica = v
		case strings.HasPrefix(name, "inventory_database_replica_usable{"):
			m.usable = v == 1
		case strings.HasPrefix(name, "inventory_database_replica_lag_seconds{"):
			m.lag = v
		}
	}
	return m
}

// eventually polls ok every 20 ms until it holds, or fails the test after
// within.
func eventually(t testing.TB, within time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
	}
}

// servedByReplica tells whether read was served by the instance's replica.
func servedByReplica(t testing.TB, base string, read func()) bool {
	t.Helper()
	before := replicaMetrics(t, base).replica
	read()
	return replicaMetrics(t, base).replica > before
}

// caughtUp waits until the instance's standby serves the product.
func caughtUp(t testing.TB, base string, reader replicaClient, article int64) {
	t.Helper()
	eventually(t, 10*time.Second, "the standby serves the product", func() bool {
		found := false
		return servedByReplica(t, base, func() {
			status, _, _ := reader.send(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil, "")
			found = status == http.StatusOK
		}) && found
	})
}

// replicatedServices starts n instances of the service on the pair, with
// the standby as their replica and maxLag.
func replicatedServices(t *testing.T, pair *testdb.Replicated, maxLag string, n int) []string {
	t.Setenv("INVENTORY_DATABASE_REPLICA_URL", pair.Standby)
	t.Setenv("INVENTORY_REPLICA_MAX_LAG", maxLag)
	var bases []string
	for range n {
		bases = append(bases, consoleService(t, pair.Primary))
	}
	return bases
}

// TestReplicaServesStaleReadsButEveryClientItsOwnWrites: with the
// standby's replay paused, a client that sends no position reads what the
// standby has (so reads do go to it); one that sends the position of a
// write reads that write; the writer reads its own writes on the instance
// it wrote through without sending anything.
func TestReplicaServesStaleReadsButEveryClientItsOwnWrites(t *testing.T) {
	pair := testdb.StartReplicated(t)
	bases := replicatedServices(t, pair, "1m", 2)
	a, b := bases[0], bases[1]
	api := apiClient{base: a, user: "admin", key: consoleKey}
	wh := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "W", "name": "W"})
	article := api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "R-1"})
	reader := replicaClient{b, "rita", api.newUser(t, "rita", "reader")}
	writerOnA, writerOnB := replicaClient{a, "admin", consoleKey}, replicaClient{b, "admin", consoleKey}
	caughtUp(t, b, reader, article)

	pair.PauseReplay(t)
	status, header, body := writerOnA.send(t, "PUT", "/api/stock/change/replica-1",
		[]any{map[string]any{"articleDetailId": article, "quantity": 5, "warehouse": map[string]any{"id": wh}}}, "")
	position := header.Get("X-Inventory-Position")
	if status != http.StatusOK || position == "" {
		t.Fatalf("the write: %d %v, position %q", status, body, position)
	}

	if !servedByReplica(t, b, func() {
		if got := reader.stock(t, article, ""); got != 0 {
			t.Errorf("a client sending no position read %d pieces while the standby is paused before the write, want its 0", got)
		}
	}) {
		t.Error("a client sending no position was not served by the standby")
	}
	if got := reader.stock(t, article, position); got != 5 {
		t.Errorf("a client sending the write's position read %d pieces, want 5", got)
	}
	if got := writerOnA.stock(t, article, ""); got != 5 {
		t.Errorf("the writer on its instance read %d pieces, want 5", got)
	}
	if got := writerOnB.stock(t, article, ""); got != 0 {
		t.Errorf("the writer on another instance, without the header, read %d pieces: that instance cannot know of the write, so the standby's 0 was expected", got)
	}
	status, _, body = reader.send(t, "GET", "/api/warehouses", nil, "yesterday")
	if msg, _ := body["message"].(string); status != http.StatusBadRequest || !strings.Contains(msg, "X-Inventory-Position") {
		t.Errorf("a malformed position: %d %v, want 400 naming the header", status, body)
	}

	pair.ResumeReplay(t)
	eventually(t, 10*time.Second, "the standby serves the write to a client sending its position", func() bool {
		fresh := false
		return servedByReplica(t, b, func() { fresh = reader.stock(t, article, position) == 5 }) && fresh
	})
}

// TestLaggingOrStoppedReplicaCostsNoFailedRequest: a standby more than
// INVENTORY_REPLICA_MAX_LAG behind is left for the primary until it
// catches up; one that stops fails no request, and /readyz does not mind.
func TestLaggingOrStoppedReplicaCostsNoFailedRequest(t *testing.T) {
	pair := testdb.StartReplicated(t)
	base := replicatedServices(t, pair, "500ms", 1)[0]
	api := apiClient{base: base, user: "admin", key: consoleKey}
	wh := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "W", "name": "W"})
	article := api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "R-1"})
	reader := replicaClient{base, "rita", api.newUser(t, "rita", "reader")}
	writer := replicaClient{base, "admin", consoleKey}
	caughtUp(t, base, reader, article)

	pair.PauseReplay(t)
	writer.send(t, "PUT", "/api/stock/change/lag-1",
		[]any{map[string]any{"articleDetailId": article, "quantity": 5, "warehouse": map[string]any{"id": wh}}}, "")
	eventually(t, 5*time.Second, "the paused standby is left alone", func() bool {
		reader.stock(t, article, "")
		return !replicaMetrics(t, base).usable
	})
	if m := replicaMetrics(t, base); m.lag < 0.5 {
		t.Errorf("the standby is not used, with a lag of %v s", m.lag)
	}
	if servedByReplica(t, base, func() {
		if got := reader.stock(t, article, ""); got != 5 {
			t.Errorf("with the standby too far behind, a read got %d pieces, want the primary's 5", got)
		}
	}) {
		t.Error("a standby more than the maximum lag behind served a read")
	}

	pair.ResumeReplay(t)
	eventually(t, 10*time.Second, "the standby caught up serves again", func() bool {
		return servedByReplica(t, base, func() { reader.stock(t, article, "") })
	})

	pair.StopStandby(t)
	for i := range 20 {
		if got := reader.stock(t, article, ""); got != 5 {
			t.Errorf("read %d with the standby stopped: %d pieces, want 5", i, got)
		}
		for _, path := range []string{"/api/events", "/api/stock.csv", "/api/stockLedgerEntries"} {
			if status, _, body := reader.send(t, "GET", path, nil, ""); status != http.StatusOK {
				t.Errorf("GET %s with the standby stopped: %d %v", path, status, body)
			}
		}
	}
	if resp, err := http.Get(base + "/readyz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/readyz with the standby stopped: %v %v", resp, err)
	}
	if replicaMetrics(t, base).usable {
		t.Error("a stopped standby is still used")
	}

	pair.StartStandby(t)
	eventually(t, 20*time.Second, "the standby started again serves again", func() bool {
		return servedByReplica(t, base, func() { reader.stock(t, article, "") })
	})
}

// TestFeedFromReplicaIsExactlyOnceInCommitOrder: the change feed's
// guarantee, read through a hot standby. A standby makes transactions
// visible in the order of their commit records in the WAL, and a writer
// takes feed positions only after the previous one committed, so every
// state a standby shows holds a prefix of the feed.
func TestFeedFromReplicaIsExactlyOnceInCommitOrder(t *testing.T) {
	pair := testdb.StartReplicated(t)
	var instances []*apitest.Env
	for range 3 {
		instances = append(instances, feedInstance(t, pair.Primary, pair.Standby))
	}
	res := instances[0].Do(t, "POST", "/api/users", map[string]any{"name": "feeder", "role": "reader"})
	if res.Status != http.StatusCreated {
		t.Fatalf("reader: %s", res)
	}
	feeder := replicaClient{user: "feeder", key: res.JSON(t)["data"].(map[string]any)["key"].(string)}
	pages := 0
	readPage := func(t testing.TB, env *apitest.Env, query string) ([]feedEvent, int64) {
		t.Helper()
		c := feeder
		c.base = env.URL
		status, _, body := c.send(t, "GET", "/api/events?"+query, nil, "")
		if status != http.StatusOK {
			t.Fatalf("GET /api/events?%s: %d %v", query, status, body)
		}
		raw, _ := json.Marshal(body["data"])
		var events []feedEvent
		if err := json.Unmarshal(raw, &events); err != nil {
			t.Fatal(err)
		}
		pages++
		return events, int64(body["last"].(float64))
	}
	problems := feedRunOn(t, instances, false, 3*time.Second, readPage)
	for i, p := range problems {
		if i == 20 {
			t.Errorf("… and %d more", len(problems)-20)
			break
		}
		t.Error(p)
	}
	var fromReplica uint64
	for _, env := range instances {
		_, replicas := env.DB.ReadStats()
		fromReplica += replicas[0].Reads
	}
	t.Logf("%d of %d pages of the feed read from the standby", fromReplica, pages)
	if fromReplica < uint64(pages)/2 {
		t.Errorf("only %d of %d pages of the feed were read from the standby", fromReplica, pages)
	}
}

// TestConsoleReadsItsOwnWritesFromAPausedReplica: the console keeps the
// position of its session's last write, so the page after a post shows
// it while the standby is paused; another session's pages are the
// standby's.
func TestConsoleReadsItsOwnWritesFromAPausedReplica(t *testing.T) {
	pair := testdb.StartReplicated(t)
	base := replicatedServices(t, pair, "1m", 1)[0]
	f := newConsoleFixture(t, base)
	f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
	reader := replicaClient{base, "rita", f.api.newUser(t, "rita", "reader")}
	caughtUp(t, base, reader, f.product)
	eventually(t, 10*time.Second, "the standby has the bins", func() bool {
		_, _, body := reader.send(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-01", nil, "")
		return body["total"] == 1.0
	})
	worker, other := newConsoleClient(t, base), newConsoleClient(t, base)
	worker.signIn("admin", consoleKey)
	other.signIn("admin", consoleKey)
	physical := regexp.MustCompile(`<span class="label">Physical</span><span class="value">(\d+)</span>`)
	stockOn := func(page string) string {
		m := physical.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no physical stock on the page:\n%s", page)
		}
		return m[1]
	}

	pair.PauseReplay(t)
	product := fmt.Sprintf("/console/products/%d", f.product)
	_, page := worker.get(product)
	resp, page := worker.submit(page, product+"/in", url.Values{"warehouse": {fmt.Sprint(f.warehouse)}, "bin": {"A-01"}, "quantity": {"4"}})
	if resp.StatusCode != http.StatusOK || stockOn(page) != "4" {
		t.Errorf("the page after booking 4 pieces in: %d, physical %s, want 4", resp.StatusCode, stockOn(page))
	}
	if _, page := other.get(product); stockOn(page) != "0" {
		t.Errorf("another session's page shows physical %s, want the paused standby's 0", stockOn(page))
	}
	pair.ResumeReplay(t)
}

// TestReplicaSettingsRefusedAtStart: replicas with SQLite, a replica URL
// that is not PostgreSQL's and a maximum lag that is no duration each stop
// the start with one line naming the variable.
func TestReplicaSettingsRefusedAtStart(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"INVENTORY_DATABASE_REPLICA_URL": "postgres://replica/inventory"},
			"INVENTORY_DATABASE_REPLICA_URL: replicas are PostgreSQL hot standbys, and INVENTORY_DATABASE_URL is SQLite"},
		{map[string]string{"INVENTORY_DATABASE_URL": "postgres://primary/inventory", "INVENTORY_SECRET_KEY": testdb.SecretKey,
			"INVENTORY_DATABASE_REPLICA_URL": "postgres://replica-1/inventory, mysql://replica-2/inventory"},
			`INVENTORY_DATABASE_REPLICA_URL: want PostgreSQL URLs separated by commas`},
		{map[string]string{"INVENTORY_REPLICA_MAX_LAG": "5"}, `INVENTORY_REPLICA_MAX_LAG: want a positive Go duration such as 5s, got "5"`},
	} {
		c.env["INVENTORY_HTTP_ADDR"] = freeAddr(t)
		code, stderr := runStart(t, t.TempDir(), c.env)
		if lines := strings.Split(strings.TrimSpace(stderr), "\n"); code != 1 || !strings.Contains(lines[len(lines)-1], c.want) {
			t.Errorf("%v: exit %d, stderr %q, want a last line with %q", c.env, code, stderr, c.want)
		}
	}
}
