package test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	mailadapter "github.com/shopstock/inventory/adapters/mail"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/smtpserver"
	"github.com/shopstock/inventory/test/testdb"
)

// The status mail travels from a shipment through the outbox to a real SMTP
// server: once, with retries, and never twice however many instances run.

func mailSMTP(t testing.TB, srv *smtpserver.Server) ports.Mailer {
	t.Helper()
	m, err := mailadapter.NewSMTP(srv.URL(), "inventory@example.com")
	if err != nil {
		t.Fatalf("NewSMTP: %v", err)
	}
	return m
}

// mailShipped ships a new order of one piece to email and returns its number.
func mailShipped(t *testing.T, f *ordFixture, number, email string, suppress bool) {
	t.Helper()
	f.put(f.art1, ordInWarehouse(f.main), 1)
	o := f.createOrder(order.NewOrder{Number: number, CustomerEmail: email, Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}})
	if err := f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, nil, suppress, "tester"); err != nil {
		t.Fatalf("ship %s: %v", number, err)
	}
}

func mailDispatch(t testing.TB, d *application.MailDispatcher) application.DispatchReport {
	t.Helper()
	r, err := d.DispatchOnce(apitest.Admin())
	if err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	return r
}

func TestStatusMailArrives(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		srv := smtpserver.Start(t)
		d := f.app.MailDispatcher(mailSMTP(t, srv))

		mailShipped(t, f, "M-1", "jane@example.com", false)
		mailShipped(t, f, "M-2", "joe@example.com", true)
		if r := mailDispatch(t, d); r.Sent != 1 || len(r.Failures) != 0 {
			t.Fatalf("report = %+v, want 1 sent", r)
		}
		msgs := srv.WaitFor(t, 1, 5*time.Second)
		m := msgs[0]
		if len(m.To) != 1 || m.To[0] != "jane@example.com" || m.From != "inventory@example.com" {
			t.Errorf("envelope = %v from %q", m.To, m.From)
		}
		if !strings.Contains(m.Subject, "M-1") || !strings.Contains(m.Subject, "Completely delivered") {
			t.Errorf("subject = %q", m.Subject)
		}
		if !strings.Contains(m.Body, "Completely delivered") || !strings.Contains(m.Body, "1 of 1 shipped") {
			t.Errorf("body = %q", m.Body)
		}
		if r := mailDispatch(t, d); r.Sent != 0 {
			t.Errorf("a sent mail was sent again: %+v", r)
		}
		time.Sleep(50 * time.Millisecond)
		if got := len(srv.Messages()); got != 1 {
			t.Errorf("server got %d mails, want 1 (the suppressed one must not be sent)", got)
		}
	})
}

func TestStatusMailIsRetriedAfterARefusal(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		srv := smtpserver.Start(t)
		d := f.app.MailDispatcher(mailSMTP(t, srv))
		d.FirstRetry = 200 * time.Millisecond

		mailShipped(t, f, "R-1", "jane@example.com", false)
		srv.RefuseNext(1)
		if r := mailDispatch(t, d); r.Sent != 0 || r.Retrying != 1 || len(r.Failures) != 1 {
			t.Fatalf("first round = %+v, want one failure to retry", r)
		}
		if r := mailDispatch(t, d); r.Sent != 0 || r.Retrying != 0 {
			t.Fatalf("a mail was retried before its backoff: %+v", r)
		}
		time.Sleep(300 * time.Millisecond)
		if r := mailDispatch(t, d); r.Sent != 1 {
			t.Fatalf("retry round = %+v, want 1 sent", r)
		}
		time.Sleep(300 * time.Millisecond)
		if r := mailDispatch(t, d); r.Sent != 0 {
			t.Fatalf("a delivered mail was sent again: %+v", r)
		}
		msgs := srv.Messages()
		if len(msgs) != 1 || msgs[0].To[0] != "jane@example.com" {
			t.Fatalf("server got %d mails, want exactly 1: %+v", len(msgs), msgs)
		}

		var row struct {
			Attempts  int        `bun:"attempts"`
			SentAt    *time.Time `bun:"sent_at"`
			LastError string     `bun:"last_error"`
		}
		if err := f.env.DB.Bun().NewSelect().Table("mail_outbox").Column("attempts", "sent_at", "last_error").Scan(f.ctx, &row); err != nil {
			t.Fatal(err)
		}
		if row.Attempts != 2 || row.SentAt == nil {
			t.Errorf("outbox row = %+v, want 2 attempts and sent", row)
		}
	})
}

func TestStatusMailIsGivenUpAfterTheLastAttempt(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		srv := smtpserver.Start(t)
		d := f.app.MailDispatcher(mailSMTP(t, srv))
		d.FirstRetry, d.MaxAttempts = time.Millisecond, 3
		mailShipped(t, f, "G-1", "jane@example.com", false)
		srv.RefuseNext(100)
		var gaveUp int
		for range 6 {
			r := mailDispatch(t, d)
			gaveUp += r.GivenUp
			if r.Sent != 0 {
				t.Fatalf("a refused mail counted as sent: %+v", r)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if gaveUp != 1 {
			t.Fatalf("given up %d times, want once", gaveUp)
		}
		var row struct {
			Attempts int        `bun:"attempts"`
			FailedAt *time.Time `bun:"failed_at"`
		}
		if err := f.env.DB.Bun().NewSelect().Table("mail_outbox").Column("attempts", "failed_at").Scan(f.ctx, &row); err != nil {
			t.Fatal(err)
		}
		if row.Attempts != 3 || row.FailedAt == nil {
			t.Errorf("outbox row = %+v, want 3 attempts and failed", row)
		}
	})
}

func TestStatusMailToAMailboxRefusedForGoodIsGivenUpAtOnce(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		srv := smtpserver.Start(t)
		srv.RejectRecipient("gone@example.com")
		d := f.app.MailDispatcher(mailSMTP(t, srv))
		d.FirstRetry, d.MaxAttempts = time.Millisecond, 5
		mailShipped(t, f, "U-1", "gone@example.com", false)
		if r := mailDispatch(t, d); r.GivenUp != 1 || r.Retrying != 0 {
			t.Fatalf("a 550 is not retried: %+v", r)
		}
		time.Sleep(10 * time.Millisecond)
		if r := mailDispatch(t, d); r.Sent+r.Retrying+r.GivenUp != 0 {
			t.Fatalf("nothing is left to send: %+v", r)
		}
		var attempts int
		if err := f.env.DB.Bun().NewSelect().Table("mail_outbox").Column("attempts").Where("failed_at IS NOT NULL").Scan(f.ctx, &attempts); err != nil || attempts != 1 {
			t.Fatalf("one attempt, then failed: %d %v", attempts, err)
		}
	})
}

// slowMailer widens the window in which two dispatchers could race.
type slowMailer struct{ ports.Mailer }

func (m slowMailer) Send(ctx context.Context, mail ports.Mail) error {
	time.Sleep(5 * time.Millisecond)
	return m.Mailer.Send(ctx, mail)
}

func TestTwoDispatchersSendEachMailOnce(t *testing.T) {
	t.Parallel()
	databaseURL := testdb.Postgres(t)
	first := apitest.New(t, databaseURL)
	second := apitest.New(t, databaseURL) // a second instance: its own pool
	srv := smtpserver.Start(t)

	const mails = 40
	ctx := apitest.Admin()
	err := first.DB.Write(ctx, func(ctx context.Context, s ports.Store) error {
		for i := range mails {
			m := ports.Mail{To: fmt.Sprintf("c%d@example.com", i), Subject: fmt.Sprintf("mail %d", i), Body: "hello"}
			if err := s.Outbox().Enqueue(ctx, m, time.Now().Add(-time.Second)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("enqueue: %v", err)
	}

	var wg sync.WaitGroup
	for _, env := range []*apitest.Env{first, second, first, second} {
		d := env.App.MailDispatcher(slowMailer{mailSMTP(t, srv)})
		d.Batch = 3
		wg.Add(1)
		go func() {
			defer wg.Done()
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) && len(srv.Messages()) < mails {
				if _, err := d.DispatchOnce(ctx); err != nil {
					t.Errorf("dispatch: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	time.Sleep(100 * time.Millisecond)

	seen := map[string]int{}
	for _, m := range srv.Messages() {
		seen[m.Subject]++
	}
	if len(seen) != mails {
		t.Errorf("%d distinct mails arrived, want %d", len(seen), mails)
	}
	for subject, n := range seen {
		if n != 1 {
			t.Errorf("%q arrived %d times", subject, n)
		}
	}
}
