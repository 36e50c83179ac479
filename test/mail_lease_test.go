package test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The outbox's leases live on the database's clock: instances
// whose clocks disagree never send a mail twice, and a dispatcher that dies
// after claiming leaves its mail to another one once the lease has run out.

// skewedClock is an instance's clock that is off by some seconds.
type skewedClock struct{ off time.Duration }

func (c skewedClock) Now() time.Time { return time.Now().UTC().Add(c.off) }

// gateMailer sends nothing until released (or its context ends), and
// records what it sent.
type gateMailer struct {
	started chan struct{}
	release chan struct{}
	mu      sync.Mutex
	sent    []ports.Mail
}

func newGateMailer() *gateMailer {
	return &gateMailer{started: make(chan struct{}, 10), release: make(chan struct{})}
}

func (m *gateMailer) Send(ctx context.Context, mail ports.Mail) error {
	m.started <- struct{}{}
	select {
	case <-m.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, mail)
	return nil
}

func (m *gateMailer) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sent)
}

// instantMailer sends at once.
type instantMailer struct{ gateMailer }

func (m *instantMailer) Send(_ context.Context, mail ports.Mail) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, mail)
	return nil
}

func mailInstance(t *testing.T, databaseURL string, off time.Duration) *application.App {
	env := apitest.New(t, databaseURL)
	return application.New(env.DB, skewedClock{off}, apitest.Secrets(t))
}

func mailEnqueue(t *testing.T, app *application.App, env *apitest.Env, to string) {
	t.Helper()
	err := env.DB.Write(context.Background(), func(ctx context.Context, s ports.Store) error {
		return s.Outbox().Enqueue(ctx, ports.Mail{To: to, Subject: "s", Body: "b"}, time.Now())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMailLeaseUsesTheDatabaseClock(t *testing.T) {
	t.Parallel()
	databaseURL := testdb.Postgres(t)
	env := apitest.New(t, databaseURL)
	behind := application.New(env.DB, skewedClock{-15 * time.Second}, apitest.Secrets(t))
	ahead := mailInstance(t, databaseURL, 15*time.Second)
	mailEnqueue(t, behind, env, "jane@example.com")

	slow := newGateMailer()
	first := behind.MailDispatcher(slow)
	first.Lease = 10 * time.Second
	done := make(chan application.DispatchReport)
	go func() {
		r, err := first.DispatchOnce(apitest.Admin())
		if err != nil {
			t.Errorf("dispatch: %v", err)
		}
		done <- r
	}()
	<-slow.started // the mail is claimed and being sent

	// An instance 30 s ahead of the one that claimed: with leases on the
	// instances' clocks it would take the mail as expired and send it again.
	fast := &instantMailer{}
	second := ahead.MailDispatcher(fast)
	second.Lease = 10 * time.Second
	if r, err := second.DispatchOnce(apitest.Admin()); err != nil || r.Done() != 0 {
		t.Fatalf("the second instance claimed a leased mail: %+v %v", r, err)
	}
	close(slow.release)
	if r := <-done; r.Sent != 1 {
		t.Fatalf("first dispatcher: %+v", r)
	}
	if r, _ := second.DispatchOnce(apitest.Admin()); r.Done() != 0 || fast.count() != 0 || slow.count() != 1 {
		t.Fatalf("the mail went out %d + %d times", slow.count(), fast.count())
	}
}

func TestMailOfADispatcherThatDiedIsSentByAnotherAfterTheLease(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		mailEnqueue(t, env.App, env, "jane@example.com")

		dying := newGateMailer()
		first := env.App.MailDispatcher(dying)
		first.Lease = time.Second
		ctx, kill := context.WithCancel(apitest.Admin())
		done := make(chan error)
		go func() {
			_, err := first.DispatchOnce(ctx)
			done <- err
		}()
		<-dying.started
		kill() // the process goes away in the middle of sending
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("a killed dispatcher records nothing: %v", err)
		}

		other := &instantMailer{}
		second := env.App.MailDispatcher(other)
		if r, _ := second.DispatchOnce(apitest.Admin()); r.Done() != 0 {
			t.Fatalf("the mail was taken while its lease held: %+v", r)
		}
		time.Sleep(1100 * time.Millisecond)
		if r, err := second.DispatchOnce(apitest.Admin()); err != nil || r.Sent != 1 || other.count() != 1 || dying.count() != 0 {
			t.Fatalf("after the lease another dispatcher sends it once: %+v %v", r, err)
		}
		var attempts int
		if err := env.DB.Bun().NewSelect().Table("mail_outbox").Column("attempts").Where("sent_at IS NOT NULL").Scan(context.Background(), &attempts); err != nil || attempts != 2 {
			t.Errorf("attempts %d (%v), want 2: the lost one and the sent one", attempts, err)
		}
	})
}

func TestSentMailsArePurgedAfterTheRetention(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		ctx := apitest.Admin()
		for _, to := range []string{"old@example.com", "recent@example.com", "pending@example.com", "failed@example.com"} {
			mailEnqueue(t, env.App, env, to)
		}
		st, err := env.App.MailQueueStats(ctx)
		if err != nil || st.Pending != 4 || st.OldestAge < 0 || st.OldestAge > time.Minute {
			t.Fatalf("stats %+v %v", st, err)
		}
		old := time.Now().UTC().Add(-721 * time.Hour)
		recent := time.Now().UTC().Add(-time.Hour)
		bdb := env.DB.Bun()
		for _, u := range []struct {
			to, column string
			at         time.Time
		}{{"old@example.com", "sent_at", old}, {"recent@example.com", "sent_at", recent}, {"failed@example.com", "failed_at", old}} {
			if _, err := bdb.NewUpdate().Table("mail_outbox").Set(u.column+" = ?", u.at).Where("recipient = ?", u.to).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		n, err := env.App.PurgeMails(ctx, 720*time.Hour)
		if err != nil || n != 2 {
			t.Fatalf("purged %d (%v), want the old sent and the old given-up mail", n, err)
		}
		var left []string
		if err := bdb.NewSelect().Table("mail_outbox").Column("recipient").OrderExpr("recipient").Scan(ctx, &left); err != nil {
			t.Fatal(err)
		}
		if len(left) != 2 || left[0] != "pending@example.com" || left[1] != "recent@example.com" {
			t.Errorf("left %v", left)
		}
		if st, _ := env.App.MailQueueStats(ctx); st.Pending != 1 {
			t.Errorf("pending %d, want 1", st.Pending)
		}
	})
}

// lateMailer ignores its context, as a send stuck in a system call would,
// and fails after a while.
type lateMailer struct {
	started chan struct{}
	delay   time.Duration
}

func (m lateMailer) Send(context.Context, ports.Mail) error {
	m.started <- struct{}{}
	time.Sleep(m.delay)
	return errors.New("451 try again later")
}

// An attempt that overran its lease, while another dispatcher claimed and
// sent the mail, records nothing: its late failure neither reschedules nor
// fails the sent mail.
func TestTheOutcomeOfAnAttemptPastItsLeaseIsNotRecorded(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		mailEnqueue(t, env.App, env, "jane@example.com")
		late := lateMailer{started: make(chan struct{}, 1), delay: 1500 * time.Millisecond}
		first := env.App.MailDispatcher(late)
		first.Lease = time.Second
		done := make(chan application.DispatchReport)
		go func() {
			r, err := first.DispatchOnce(apitest.Admin())
			if err != nil {
				t.Errorf("dispatch: %v", err)
			}
			done <- r
		}()
		<-late.started
		time.Sleep(1100 * time.Millisecond)
		other := &instantMailer{}
		if r, err := env.App.MailDispatcher(other).DispatchOnce(apitest.Admin()); err != nil || r.Sent != 1 {
			t.Fatalf("after the lease the second dispatcher sends: %+v %v", r, err)
		}
		<-done
		var row struct {
			Attempts  int        `bun:"attempts"`
			SentAt    *time.Time `bun:"sent_at"`
			FailedAt  *time.Time `bun:"failed_at"`
			LastError string     `bun:"last_error"`
		}
		if err := env.DB.Bun().NewSelect().Table("mail_outbox").Column("attempts", "sent_at", "failed_at", "last_error").Scan(context.Background(), &row); err != nil {
			t.Fatal(err)
		}
		if row.Attempts != 2 || row.SentAt == nil || row.FailedAt != nil || row.LastError != "" {
			t.Errorf("outbox row = %+v: the late failure of attempt 1 overwrote attempt 2", row)
		}
		if r, _ := env.App.MailDispatcher(other).DispatchOnce(apitest.Admin()); r.Done() != 0 {
			t.Errorf("the sent mail was rescheduled: %+v", r)
		}
	})
}
