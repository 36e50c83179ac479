package mail_test

import (
	"context"
	"errors"
	"mime"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	mailadapter "github.com/shopstock/inventory/adapters/mail"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/smtpserver"
)

const from = "Inventory <inventory@shop.test>"

func newSMTP(t *testing.T, rawURL string) *mailadapter.SMTP {
	t.Helper()
	s, err := mailadapter.NewSMTP(rawURL, from)
	if err != nil {
		t.Fatalf("NewSMTP(%q): %v", rawURL, err)
	}
	return s
}

func send(t *testing.T, s ports.Mailer, m ports.Mail) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Send(ctx, m); err != nil {
		t.Fatalf("Send: %v", err)
	}
}

func withAuth(rawURL, user, pass string) string {
	scheme, rest, _ := strings.Cut(rawURL, "://")
	return scheme + "://" + user + ":" + pass + "@" + rest
}

func TestSMTPDeliversRecipientSenderSubjectAndBody(t *testing.T) {
	srv := smtpserver.Start(t)
	body := "Ihre Bestellung 10001 wurde versandt.\n" +
		".Eine Zeile, die mit einem Punkt beginnt\n" +
		strings.Repeat("Sehr lange Zeile äöü ", 20) + "\n" +
		"Grüße\n"

	send(t, newSMTP(t, srv.URL()), ports.Mail{
		To:      "kunde@example.com",
		Subject: "Bestellung 10001 – Status",
		Body:    body,
	})

	got := srv.WaitFor(t, 1, 5*time.Second)[0]
	if got.From != "inventory@shop.test" {
		t.Errorf("envelope sender = %q, want inventory@shop.test", got.From)
	}
	if len(got.To) != 1 || got.To[0] != "kunde@example.com" {
		t.Errorf("envelope recipients = %q, want [kunde@example.com]", got.To)
	}
	if got.Subject != "Bestellung 10001 – Status" {
		t.Errorf("subject = %q", got.Subject)
	}
	if got.Body != body {
		t.Errorf("body = %q, want %q", got.Body, body)
	}
	if got.User != "" {
		t.Errorf("authenticated as %q without credentials", got.User)
	}
}

func TestSMTPWritesAnRFC5322Message(t *testing.T) {
	srv := smtpserver.Start(t)
	send(t, newSMTP(t, srv.URL()), ports.Mail{To: "Kunde <kunde@example.com>", Subject: "Bestellung 10001 – Status", Body: "Grüße"})

	got := srv.WaitFor(t, 1, 5*time.Second)[0]
	for i, r := range got.Data {
		if r > 127 {
			t.Fatalf("raw message has non-ASCII %q at %d; it must be encoded:\n%s", r, i, got.Data)
		}
	}
	msg, err := mail.ReadMessage(strings.NewReader(got.Data))
	if err != nil {
		t.Fatalf("parse message: %v\n%s", err, got.Data)
	}
	h := msg.Header
	if a, err := mail.ParseAddress(h.Get("From")); err != nil || a.Address != "inventory@shop.test" || a.Name != "Inventory" {
		t.Errorf("From = %q (%v)", h.Get("From"), err)
	}
	if a, err := mail.ParseAddress(h.Get("To")); err != nil || a.Address != "kunde@example.com" {
		t.Errorf("To = %q (%v)", h.Get("To"), err)
	}
	if d, err := h.Date(); err != nil || time.Since(d) > time.Minute {
		t.Errorf("Date = %q (%v)", h.Get("Date"), err)
	}
	if id := h.Get("Message-ID"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@shop.test>") {
		t.Errorf("Message-ID = %q", id)
	}
	if mt, params, err := mime.ParseMediaType(h.Get("Content-Type")); err != nil || mt != "text/plain" || !strings.EqualFold(params["charset"], "utf-8") {
		t.Errorf("Content-Type = %q", h.Get("Content-Type"))
	}
	want := map[string]string{
		"MIME-Version":              "1.0",
		"Content-Transfer-Encoding": "quoted-printable",
		"Auto-Submitted":            "auto-generated",
	}
	for k, v := range want {
		if h.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, h.Get(k), v)
		}
	}
}

func TestSMTPKeepsLineBreaksInTheSubjectOutOfTheHeader(t *testing.T) {
	srv := smtpserver.Start(t)
	send(t, newSMTP(t, srv.URL()), ports.Mail{To: "kunde@example.com", Subject: "Status\r\nBcc: victim@example.com", Body: "x"})

	got := srv.WaitFor(t, 1, 5*time.Second)[0]
	msg, err := mail.ReadMessage(strings.NewReader(got.Data))
	if err != nil {
		t.Fatalf("parse message: %v", err)
	}
	if bcc := msg.Header.Get("Bcc"); bcc != "" {
		t.Errorf("subject injected a Bcc header: %q", bcc)
	}
	if got.Subject != "Status Bcc: victim@example.com" {
		t.Errorf("subject = %q", got.Subject)
	}
}

func TestSMTPAuthenticatesWithPlainWhenTheURLHasCredentials(t *testing.T) {
	srv := smtpserver.Start(t, smtpserver.WithSTARTTLS(), smtpserver.WithCredentials("shop", "s3cret"))
	s := newSMTP(t, withAuth(srv.URL(), "shop", "s3cret")).WithTLSConfig(srv.ClientTLSConfig())
	send(t, s, ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})

	if got := srv.WaitFor(t, 1, 5*time.Second)[0]; got.User != "shop" || got.Mech != "PLAIN" {
		t.Errorf("authenticated as %q with %q, want shop with PLAIN", got.User, got.Mech)
	}
}

func TestSMTPUpgradesWithSTARTTLSWhenOffered(t *testing.T) {
	srv := smtpserver.Start(t, smtpserver.WithSTARTTLS())
	s := newSMTP(t, withAuth(srv.URL(), "shop", "s3cret")).WithTLSConfig(srv.ClientTLSConfig())
	send(t, s, ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})

	got := srv.WaitFor(t, 1, 5*time.Second)[0]
	if !got.TLS || got.User != "shop" {
		t.Errorf("TLS = %v, user = %q; want an authenticated mail over TLS", got.TLS, got.User)
	}
}

func TestSMTPRefusesAnUntrustedCertificate(t *testing.T) {
	srv := smtpserver.Start(t, smtpserver.WithSTARTTLS())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	if err := newSMTP(t, srv.URL()).Send(ctx, ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"}); err == nil {
		t.Fatal("Send trusted a self-signed certificate")
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("%d mails arrived", n)
	}
}

func TestSMTPSpeaksImplicitTLSForSMTPS(t *testing.T) {
	srv := smtpserver.Start(t, smtpserver.WithImplicitTLS())
	if !strings.HasPrefix(srv.URL(), "smtps://") {
		t.Fatalf("URL = %q", srv.URL())
	}
	s := newSMTP(t, withAuth(srv.URL(), "shop", "s3cret")).WithTLSConfig(srv.ClientTLSConfig())
	send(t, s, ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})

	if got := srv.WaitFor(t, 1, 5*time.Second)[0]; !got.TLS || got.User != "shop" {
		t.Errorf("TLS = %v, user = %q", got.TLS, got.User)
	}
}

func TestSMTPReportsARefusedTransactionAndTheNextSendSucceeds(t *testing.T) {
	srv := smtpserver.Start(t)
	s := newSMTP(t, srv.URL())
	m := ports.Mail{To: "kunde@example.com", Subject: "Bestellung 10001 – Status", Body: "versandt"}
	srv.RefuseNext(1)

	err := s.Send(context.Background(), m)
	if err == nil || !strings.Contains(err.Error(), "451") {
		t.Fatalf("Send to a refusing server: %v, want a 451", err)
	}
	if errors.Is(err, ports.ErrUndeliverable) {
		t.Fatalf("a temporary refusal is worth a retry: %v", err)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("%d mails kept after a refusal", n)
	}

	send(t, s, m)
	if got := srv.WaitFor(t, 1, 5*time.Second); len(got) != 1 || got[0].Subject != m.Subject {
		t.Errorf("after the retry: %+v", got)
	}
}

func TestSMTPRejectsAnInvalidRecipient(t *testing.T) {
	srv := smtpserver.Start(t)
	err := newSMTP(t, srv.URL()).Send(context.Background(), ports.Mail{To: "not an address", Subject: "s", Body: "b"})
	if !errors.Is(err, ports.ErrUndeliverable) {
		t.Fatalf("an invalid recipient is undeliverable, got %v", err)
	}
}

func TestSMTPReportsAPermanentlyRefusedRecipientAsUndeliverable(t *testing.T) {
	srv := smtpserver.Start(t)
	srv.RejectRecipient("gone@example.com")
	err := newSMTP(t, srv.URL()).Send(context.Background(), ports.Mail{To: "gone@example.com", Subject: "s", Body: "b"})
	if err == nil || !strings.Contains(err.Error(), "550") || !errors.Is(err, ports.ErrUndeliverable) {
		t.Fatalf("a 550 at RCPT is undeliverable, got %v", err)
	}
}

func TestNewSMTPRejectsABadURL(t *testing.T) {
	for _, raw := range []string{
		"",
		"localhost:25",
		"http://mail.example.com",
		"smtp://",
		"smtp:mail.example.com",
		"smtp://mail.example.com:0",
		"smtp://mail.example.com:70000",
		"smtp://mail.example.com:smtp",
		"smtp://mail.example.com/inbox",
		"smtp://user:secret@mail example.com",
	} {
		t.Run(raw, func(t *testing.T) {
			_, err := mailadapter.NewSMTP(raw, "inventory@localhost")
			if err == nil {
				t.Fatal("accepted")
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error leaks the password: %v", err)
			}
		})
	}
}

func TestNewSMTPAcceptsBothSchemesAndRejectsABadSender(t *testing.T) {
	for _, raw := range []string{
		"smtp://mail.example.com",
		"smtp://mail.example.com:587/",
		"smtps://user%40shop.test:p%40ss@mail.example.com",
		"smtp://[::1]:2525",
	} {
		if _, err := mailadapter.NewSMTP(raw, "inventory@localhost"); err != nil {
			t.Errorf("NewSMTP(%q): %v", raw, err)
		}
	}
	if _, err := mailadapter.NewSMTP("smtp://mail.example.com", "no sender"); err == nil {
		t.Error("accepted an invalid sender")
	}
}

// silentServer accepts connections and never says a word, like a server
// that hangs before its greeting.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for {
			select {
			case c := <-conns:
				c.Close()
			default:
				return
			}
		}
	})
	return "smtp://" + ln.Addr().String()
}

func TestSMTPGivesUpWhenTheContextTimesOut(t *testing.T) {
	s := newSMTP(t, silentServer(t))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()

	start := time.Now()
	err := s.Send(ctx, ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Send = %v, want a deadline error", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Send took %v", d)
	}
}

func TestSMTPGivesUpWhenTheContextIsCancelled(t *testing.T) {
	s := newSMTP(t, silentServer(t))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)

	start := time.Now()
	err := s.Send(ctx, ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Send = %v, want a cancellation error", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Send took %v", d)
	}
}

func TestLogNotesRecipientAndSubjectAtDebugLevelButNeverTheBody(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	m := ports.Mail{To: "kunde@example.com", Subject: "Bestellung 10001 – Status", Body: "Ihre Bestellung an Musterstraße 1"}

	if err := mailadapter.NewLog(zap.New(core)).Send(context.Background(), m); err != nil {
		t.Fatalf("Send: %v", err)
	}

	entries := logs.AllUntimed()
	if len(entries) != 1 {
		t.Fatalf("%d log entries, want 1", len(entries))
	}
	e := entries[0]
	if e.Level != zapcore.DebugLevel {
		t.Errorf("level = %v, want debug", e.Level)
	}
	fields := e.ContextMap()
	for k, want := range map[string]string{"to": m.To, "subject": m.Subject} {
		if fields[k] != want {
			t.Errorf("field %s = %v, want %q", k, fields[k], want)
		}
	}
	for k, v := range fields {
		if s, ok := v.(string); ok && strings.Contains(s, "Musterstraße") {
			t.Errorf("field %s logs the body", k)
		}
	}
	if strings.Contains(e.Message, "Musterstraße") {
		t.Error("the message logs the body")
	}
}
