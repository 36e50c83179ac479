package test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The change feed's guarantee: three service instances on one PostgreSQL,
// eight writers (stock batches and orders) and a reader that pages with
// `after`. The reader must see every committed change exactly once and in
// commit order, within 1 s of the commit. Every commit is made slow on
// purpose (a random pause after the events are recorded), which is what
// exposes a feed whose positions are handed out at insert time: the same run
// with that design must fail, and the second test shows it does.

type feedClock struct{}

func (feedClock) Now() time.Time { return time.Now().UTC() }

// feedInstance starts one service instance on the database, reading from
// the replicas given.
func feedInstance(t *testing.T, databaseURL string, replicas ...string) *apitest.Env {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(replicas) > 0 {
		if err := db.UseReplicas(replicas, 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	slowCommit := application.WithAfterRecordingEvents(func(context.Context) {
		time.Sleep(time.Duration(rand.IntN(4000)) * time.Microsecond)
	})
	app := application.New(db, feedClock{}, apitest.Secrets(t), slowCommit)
	if _, err := app.EnsureAPIUser(apitest.Admin(), apitest.User, apitest.Key); err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.NewHandler(app, zap.NewNop(), httpapi.Config{}, db.Ping, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &apitest.Env{App: app, DB: db, URL: srv.URL}
}

// takePositionsAtInsert turns the database's feed into the broken design
// the second test must catch: positions handed out as the events are
// inserted, with no lock that orders them by commit, and the commit after a
// pause. The feed counter becomes a view whose update takes the positions
// from a sequence instead of locking the counter's row (a thousand apart,
// room for a transaction's events; readers do not mind gaps), and every
// insert of events pauses.
func takePositionsAtInsert(t *testing.T, db *bunstore.DB) {
	t.Helper()
	for _, statement := range []string{
		`ALTER TABLE event_feed RENAME TO event_feed_counter`,
		`CREATE VIEW event_feed AS SELECT * FROM event_feed_counter`,
		`CREATE SEQUENCE feed_test_positions INCREMENT BY 1000`,
		`CREATE FUNCTION feed_test_take_positions() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN
		     IF NEW.name = 'last' AND NEW.value > OLD.value THEN
		         NEW.value := nextval('feed_test_positions') + (NEW.value - OLD.value) - 1;
		     ELSE
		         UPDATE event_feed_counter SET value = NEW.value WHERE name = OLD.name;
		     END IF;
		     RETURN NEW;
		 END $$`,
		`CREATE TRIGGER feed_test_take_positions INSTEAD OF UPDATE ON event_feed
		 FOR EACH ROW EXECUTE FUNCTION feed_test_take_positions()`,
		`CREATE FUNCTION feed_test_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN
		     PERFORM pg_sleep(random() * 0.004);
		     RETURN NULL;
		 END $$`,
		`CREATE TRIGGER feed_test_slow_commit AFTER INSERT ON events
		 FOR EACH ROW EXECUTE FUNCTION feed_test_slow_commit()`,
	} {
		if _, err := db.Bun().ExecContext(context.Background(), statement); err != nil {
			t.Fatal(err)
		}
	}
}

// feedRun runs the writers and the reader on three instances and returns
// what the reader got wrong.
func feedRun(t *testing.T, positionsAtInsert bool, duration time.Duration) []string {
	databaseURL := testdb.Postgres(t)
	var instances []*apitest.Env
	for range 3 {
		instances = append(instances, feedInstance(t, databaseURL))
	}
	return feedRunOn(t, instances, positionsAtInsert, duration, evFeed)
}

// feedRunOn is feedRun on the instances given, the reader reading each
// page with readPage.
func feedRunOn(t *testing.T, instances []*apitest.Env, positionsAtInsert bool, duration time.Duration,
	readPage func(t testing.TB, env *apitest.Env, query string) ([]feedEvent, int64)) []string {
	if positionsAtInsert {
		takePositionsAtInsert(t, instances[0].DB)
	}
	setup := &ohFixture{env: instances[0]}
	wh := setup.created(t, instances[0].Do(t, "POST", "/api/warehouses", map[string]any{"code": "W", "name": "W"}), true)
	var articles []int64
	for i := range 4 {
		articles = append(articles, setup.created(t, instances[0].Do(t, "POST", "/api/articleDetails", map[string]any{"number": fmt.Sprintf("F-%d", i)}), false))
	}

	// Writers: six send batches that add one piece of one product, two
	// create orders of one piece (which lock no product, unlike batches).
	// So in commit order a product's events count up: physicalStock by one
	// with each batch, and availableStock is batches minus orders so far.
	var committed sync.Map // idempotency key, or o-<order id> -> article
	var lastCommit atomic.Int64
	stop := time.Now().Add(duration)
	var writers sync.WaitGroup
	for w := range 8 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			for n := 0; time.Now().Before(stop); n++ {
				env := instances[rand.IntN(len(instances))]
				article := articles[rand.IntN(len(articles))]
				key := fmt.Sprintf("w%d-%d", w, n)
				if w >= 6 {
					res := env.Do(t, http.MethodPost, "/api/orders", map[string]any{"number": key,
						"details": []any{map[string]any{"articleDetailId": article, "quantity": 1}}})
					if res.Status != http.StatusCreated {
						t.Errorf("writer %d: %s", w, res)
						return
					}
					committed.Store(fmt.Sprintf("o-%d", int64(res.JSON(t)["data"].(map[string]any)["id"].(float64))), article)
					lastCommit.Store(time.Now().UnixNano())
					continue
				}
				res := env.Do(t, http.MethodPut, "/api/stock/change/"+key,
					[]any{map[string]any{"articleDetailId": article, "quantity": 1, "warehouse": map[string]any{"id": wh}}})
				if res.Status != http.StatusOK || res.JSON(t)["success"] != true {
					t.Errorf("writer %d: %s", w, res)
					return
				}
				committed.Store(key, article)
				lastCommit.Store(time.Now().UnixNano())
			}
		}()
	}

	// The reader pages through the feed from any instance, as a shop would.
	type seen struct {
		id               int64
		key              string
		article          int64
		stock, available int64
	}
	var got []seen
	writersDone := make(chan struct{})
	go func() { writers.Wait(); close(writersDone) }()
	after := int64(0)
	read := func() int {
		env := instances[rand.IntN(len(instances))]
		events, last := readPage(t, env, fmt.Sprintf("after=%d&limit=50&type=stock.changed", after))
		for _, e := range events {
			cause := e.Data["cause"].(map[string]any)
			key, _ := cause["idempotencyKey"].(string)
			if cause["type"] == "orders/create" {
				key = fmt.Sprintf("o-%d", int64(cause["orderId"].(float64)))
			}
			got = append(got, seen{id: e.ID, key: key, article: int64(e.Data["id"].(float64)),
				stock: int64(e.Data["physicalStock"].(float64)), available: int64(e.Data["availableStock"].(float64))})
		}
		after = last
		return len(events)
	}
	var problems []string
	for done := false; !done; {
		select {
		case <-writersDone:
			done = true
		default:
			read()
		}
	}
	// Everything committed is in the feed within 1 s of the last commit.
	deadline := time.Unix(0, lastCommit.Load()).Add(time.Second)
	for {
		for read() > 0 {
		}
		count := 0
		committed.Range(func(any, any) bool { count++; return true })
		if len(got) >= count || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}

	// Exactly once, and each product's events in commit order.
	seenKeys := map[string]int{}
	stockOf, orderedOf := map[int64]int64{}, map[int64]int64{}
	for i, s := range got {
		if i > 0 && s.id <= got[i-1].id {
			problems = append(problems, fmt.Sprintf("event %d after %d", s.id, got[i-1].id))
		}
		seenKeys[s.key]++
		wantStock := stockOf[s.article] + 1
		if s.key[0] == 'o' {
			wantStock = stockOf[s.article]
			orderedOf[s.article]++
		}
		if s.stock != wantStock {
			problems = append(problems, fmt.Sprintf("event %d (%s): product %d at %d after %d: out of commit order", s.id, s.key, s.article, s.stock, stockOf[s.article]))
		}
		stockOf[s.article] = s.stock
		if want := s.stock - orderedOf[s.article]; s.available != want {
			problems = append(problems, fmt.Sprintf("event %d (%s): product %d available %d, want %d", s.id, s.key, s.article, s.available, want))
			orderedOf[s.article] = s.stock - s.available
		}
	}
	var missing []string
	committed.Range(func(k, _ any) bool {
		if seenKeys[k.(string)] == 0 {
			missing = append(missing, k.(string))
		}
		return true
	})
	sort.Strings(missing)
	for _, k := range missing {
		problems = append(problems, "the reader never saw the committed batch "+k)
	}
	for k, n := range seenKeys {
		if n > 1 {
			problems = append(problems, fmt.Sprintf("batch %s seen %d times", k, n))
		}
		if _, ok := committed.Load(k); !ok {
			problems = append(problems, "an event of a batch that was not committed: "+k)
		}
	}
	count := 0
	committed.Range(func(any, any) bool { count++; return true })
	t.Logf("%d batches committed, %d events read", count, len(got))
	if len(got) < 100 {
		problems = append(problems, fmt.Sprintf("only %d events: too few to tell anything", len(got)))
	}
	return problems
}

func TestFeedDeliversEveryCommitOnceInCommitOrderAcrossInstances(t *testing.T) {
	t.Parallel()
	problems := feedRun(t, false, 3*time.Second)
	for i, p := range problems {
		if i == 20 {
			t.Errorf("… and %d more", len(problems)-20)
			break
		}
		t.Error(p)
	}
}

// The same test must fail when feed positions are taken at insert time:
// otherwise it would prove nothing.
func TestFeedTestFailsWhenPositionsAreAssignedAtInsertTime(t *testing.T) {
	t.Parallel()
	problems := feedRun(t, true, 3*time.Second)
	if len(problems) == 0 {
		t.Fatal("with positions from a sequence at insert time the reader saw everything in order: the feed test cannot tell a broken feed")
	}
	t.Logf("as expected, the insert-time design fails: %d problems, first: %s", len(problems), problems[0])
}
