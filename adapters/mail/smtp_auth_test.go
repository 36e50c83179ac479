package mail_test

import (
	"context"
	"errors"
	"net/mail"
	"strings"
	"testing"
	"time"

	mailadapter "github.com/shopstock/inventory/adapters/mail"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/smtpserver"
)

// Providers differ in what they offer: some only LOGIN, some XOAUTH2 with
// an access token; each mechanism reaches a server that checks the secret.
func TestSMTPAuthenticatesWithEveryMechanism(t *testing.T) {
	for _, tc := range []struct {
		setting string   // INVENTORY_SMTP_AUTH
		offered []string // what the server offers
		want    string
	}{
		{"plain", []string{"PLAIN", "LOGIN"}, "PLAIN"},
		{"login", []string{"PLAIN", "LOGIN"}, "LOGIN"},
		{"cram-md5", []string{"CRAM-MD5", "PLAIN"}, "CRAM-MD5"},
		{"xoauth2", []string{"XOAUTH2", "PLAIN"}, "XOAUTH2"},
		{"auto", []string{"LOGIN"}, "LOGIN"},
		{"auto", []string{"CRAM-MD5"}, "CRAM-MD5"},
		{"auto", []string{"XOAUTH2", "LOGIN", "PLAIN"}, "PLAIN"},
		{"", []string{"LOGIN", "XOAUTH2"}, "LOGIN"},
	} {
		t.Run(tc.setting+"/"+strings.Join(tc.offered, ","), func(t *testing.T) {
			srv := smtpserver.Start(t, smtpserver.WithSTARTTLS(), smtpserver.WithAuth(tc.offered...),
				smtpserver.WithCredentials("shop@example.com", "s3cret/token"))
			raw := withAuth(srv.URL(), "shop%40example.com", "s3cret%2Ftoken")
			s, err := mailadapter.NewSMTP(raw, from, mailadapter.WithAuth(tc.setting))
			if err != nil {
				t.Fatal(err)
			}
			send(t, s.WithTLSConfig(srv.ClientTLSConfig()), ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})

			got := srv.WaitFor(t, 1, 5*time.Second)[0]
			if got.Mech != tc.want || got.User != "shop@example.com" || !got.TLS {
				t.Errorf("mechanism %q, user %q, TLS %v; want %s as shop@example.com over TLS", got.Mech, got.User, got.TLS, tc.want)
			}
		})
	}
}

func TestSMTPReportsWrongCredentialsForARetry(t *testing.T) {
	srv := smtpserver.Start(t, smtpserver.WithSTARTTLS(), smtpserver.WithAuth("LOGIN"), smtpserver.WithCredentials("shop", "right"))
	s := newSMTP(t, withAuth(srv.URL(), "shop", "wrong")).WithTLSConfig(srv.ClientTLSConfig())
	err := s.Send(context.Background(), ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})
	if err == nil || errors.Is(err, ports.ErrUndeliverable) {
		t.Fatalf("Send with a wrong password = %v, want an error worth a retry", err)
	}
	if _, mails := srv.Seen(); mails != 0 {
		t.Errorf("the client went on to MAIL FROM after failing to authenticate")
	}
}

// A server (or a man in the middle) that does not offer STARTTLS gets
// neither the password nor the mail when TLS is mandatory, which it is by
// default for an smtp:// URL with credentials.
func TestSMTPWithMandatoryTLSSendsNothingToAServerWithoutSTARTTLS(t *testing.T) {
	for name, s := range map[string]func(url string) (*mailadapter.SMTP, error){
		"default with credentials": func(url string) (*mailadapter.SMTP, error) {
			return mailadapter.NewSMTP(withAuth(url, "shop", "s3cret"), from)
		},
		"mandatory without credentials": func(url string) (*mailadapter.SMTP, error) {
			return mailadapter.NewSMTP(url, from, mailadapter.WithTLSPolicy(mailadapter.TLSMandatory))
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := smtpserver.Start(t)
			m, err := s(srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			if m.TLSPolicy() != mailadapter.TLSMandatory {
				t.Fatalf("policy = %q", m.TLSPolicy())
			}
			err = m.Send(context.Background(), ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})
			if err == nil || errors.Is(err, ports.ErrUndeliverable) {
				t.Fatalf("Send = %v, want a refusal worth a retry", err)
			}
			if auths, mails := srv.Seen(); auths != 0 || mails != 0 || len(srv.Messages()) != 0 {
				t.Errorf("sent in clear: %d AUTH, %d MAIL FROM, %d mails", auths, mails, len(srv.Messages()))
			}
		})
	}
}

func TestSMTPTLSPolicies(t *testing.T) {
	mail := ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"}

	t.Run("opportunistic is the default without credentials and sends in clear when STARTTLS is missing", func(t *testing.T) {
		srv := smtpserver.Start(t)
		s := newSMTP(t, srv.URL())
		if s.TLSPolicy() != mailadapter.TLSOpportunistic {
			t.Fatalf("policy = %q", s.TLSPolicy())
		}
		send(t, s, mail)
		if got := srv.WaitFor(t, 1, 5*time.Second)[0]; got.TLS {
			t.Error("TLS without STARTTLS?")
		}
	})
	t.Run("opportunistic upgrades when STARTTLS is offered", func(t *testing.T) {
		srv := smtpserver.Start(t, smtpserver.WithSTARTTLS())
		s, err := mailadapter.NewSMTP(srv.URL(), from, mailadapter.WithTLSPolicy("opportunistic"))
		if err != nil {
			t.Fatal(err)
		}
		send(t, s.WithTLSConfig(srv.ClientTLSConfig()), mail)
		if got := srv.WaitFor(t, 1, 5*time.Second)[0]; !got.TLS {
			t.Error("not upgraded")
		}
	})
	t.Run("none never upgrades, credentials included", func(t *testing.T) {
		srv := smtpserver.Start(t, smtpserver.WithSTARTTLS(), smtpserver.WithCredentials("shop", "s3cret"))
		s, err := mailadapter.NewSMTP(withAuth(srv.URL(), "shop", "s3cret"), from, mailadapter.WithTLSPolicy("none"))
		if err != nil {
			t.Fatal(err)
		}
		send(t, s, mail)
		if got := srv.WaitFor(t, 1, 5*time.Second)[0]; got.TLS || got.User != "shop" {
			t.Errorf("TLS %v, user %q; want plain and authenticated", got.TLS, got.User)
		}
	})
	t.Run("smtps is implicit TLS and refuses none", func(t *testing.T) {
		s := newSMTP(t, "smtps://mail.example.com")
		if s.TLSPolicy() != "implicit" {
			t.Errorf("policy = %q", s.TLSPolicy())
		}
		if _, err := mailadapter.NewSMTP("smtps://mail.example.com", from, mailadapter.WithTLSPolicy("none")); err == nil {
			t.Error("smtps with none accepted")
		}
	})
	t.Run("unknown settings are refused", func(t *testing.T) {
		if _, err := mailadapter.NewSMTP("smtp://mail.example.com", from, mailadapter.WithTLSPolicy("sometimes")); err == nil {
			t.Error("unknown TLS policy accepted")
		}
		if _, err := mailadapter.NewSMTP("smtp://mail.example.com", from, mailadapter.WithAuth("digest-md5")); err == nil {
			t.Error("unknown mechanism accepted")
		}
	})
}

func TestSMTPWritesInternationalDomainsInPunycode(t *testing.T) {
	srv := smtpserver.Start(t)
	s, err := mailadapter.NewSMTP(srv.URL(), "Lager <lager@bücher.example>")
	if err != nil {
		t.Fatal(err)
	}
	send(t, s, ports.Mail{To: "Kundin <kundin@straße.example>", Subject: "s", Body: "b"})

	got := srv.WaitFor(t, 1, 5*time.Second)[0]
	if got.From != "lager@xn--bcher-kva.example" {
		t.Errorf("envelope sender = %q", got.From)
	}
	if len(got.To) != 1 || got.To[0] != "kundin@xn--strae-oqa.example" {
		t.Errorf("envelope recipient = %q", got.To)
	}
	msg, err := mail.ReadMessage(strings.NewReader(got.Data))
	if err != nil {
		t.Fatal(err)
	}
	if a, err := mail.ParseAddress(msg.Header.Get("To")); err != nil || a.Address != "kundin@xn--strae-oqa.example" {
		t.Errorf("To = %q (%v)", msg.Header.Get("To"), err)
	}
	if a, err := mail.ParseAddress(msg.Header.Get("From")); err != nil || a.Address != "lager@xn--bcher-kva.example" {
		t.Errorf("From = %q (%v)", msg.Header.Get("From"), err)
	}
}

func TestSMTPReportsAPermanentlyRefusedMessageAsUndeliverable(t *testing.T) {
	srv := smtpserver.Start(t)
	srv.RejectNext(1)
	err := newSMTP(t, srv.URL()).Send(context.Background(), ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})
	if err == nil || !strings.Contains(err.Error(), "554") || !errors.Is(err, ports.ErrUndeliverable) {
		t.Fatalf("a 554 after DATA is undeliverable, got %v", err)
	}
}

func TestNewSMTPKeepsASCIIHostNamesAsTheyAre(t *testing.T) {
	// IDNA's rules refuse underscores, common in container names.
	for _, raw := range []string{"smtp://mail_relay:25", "smtp://MAIL.example.com", "smtp://[::1]:2525", "smtp://bücher.example"} {
		if _, err := mailadapter.NewSMTP(raw, "lager@mail_relay"); err != nil {
			t.Errorf("NewSMTP(%q): %v", raw, err)
		}
	}
}
