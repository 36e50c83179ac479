package mail_test

import (
	"context"
	"errors"
	"net"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

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

// An ASCII host name is used exactly as written: looked up, asked for in
// the TLS handshake and checked against the certificate as it is, even
// with an underscore (IDNA's rules refuse one; it is common in container
// names) or capitals (IDNA would fold them). Only an international name is
// written in punycode. Each case sends a mail through a resolver that knows
// the expected name alone, letter for letter, and authenticates over the
// upgraded connection.
func TestNewSMTPKeepsASCIIHostNamesAsTheyAre(t *testing.T) {
	for _, tc := range []struct{ host, want string }{
		{"mail_relay", "mail_relay"},
		{"MAIL.example.com", "MAIL.example.com"},
		{"bücher.example", "xn--bcher-kva.example"},
	} {
		t.Run(tc.host, func(t *testing.T) {
			srv := smtpserver.Start(t, smtpserver.WithSTARTTLS(), smtpserver.WithCertificateNames(tc.want),
				smtpserver.WithCredentials("shop", "s3cret"))
			asked := resolveOnly(t, tc.want, "127.0.0.1")
			_, port, _ := net.SplitHostPort(srv.Addr())
			s, err := mailadapter.NewSMTP(withAuth("smtp://"+net.JoinHostPort(tc.host, port), "shop", "s3cret"), "lager@mail_relay")
			if err != nil {
				t.Fatalf("NewSMTP: %v", err)
			}
			send(t, s.WithTLSConfig(srv.ClientTLSConfig()), ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})

			got := srv.WaitFor(t, 1, 5*time.Second)[0]
			if !slices.Contains(asked(), tc.want+".") {
				t.Errorf("looked up %q, want %q", asked(), tc.want+".")
			}
			if !got.TLS || got.ServerName != tc.want {
				t.Errorf("TLS %v with server name %q, want TLS for %q", got.TLS, got.ServerName, tc.want)
			}
			if got.Mech != "PLAIN" || got.User != "shop" {
				t.Errorf("authenticated with %q as %q, want PLAIN as shop", got.Mech, got.User)
			}
			if got.From != "lager@mail_relay" {
				t.Errorf("envelope sender %q, want lager@mail_relay as written", got.From)
			}
		})
	}
	// An IP address is not looked up and goes into no SNI; the certificate
	// is checked against the address.
	t.Run("[::1]", func(t *testing.T) {
		ln, err := net.Listen("tcp", "[::1]:0")
		if err != nil {
			// Without IPv6 on loopback the failed dial shows the address used.
			s, err := mailadapter.NewSMTP("smtp://[::1]:1", "lager@mail_relay")
			if err != nil {
				t.Fatalf("NewSMTP: %v", err)
			}
			err = s.Send(context.Background(), ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})
			if err == nil || !strings.Contains(err.Error(), "dial tcp [::1]:1") {
				t.Fatalf("Send to [::1]:1 without IPv6 = %v, want a failure to dial [::1]:1", err)
			}
			return
		}
		ln.Close()
		srv := smtpserver.Start(t, smtpserver.WithListenAddress("[::1]:0"), smtpserver.WithSTARTTLS(),
			smtpserver.WithCredentials("shop", "s3cret"))
		asked := resolveOnly(t, "nothing.invalid", "127.0.0.1")
		s, err := mailadapter.NewSMTP(withAuth("smtp://"+srv.Addr(), "shop", "s3cret"), "lager@mail_relay")
		if err != nil {
			t.Fatalf("NewSMTP: %v", err)
		}
		send(t, s.WithTLSConfig(srv.ClientTLSConfig()), ports.Mail{To: "kunde@example.com", Subject: "s", Body: "b"})
		got := srv.WaitFor(t, 1, 5*time.Second)[0]
		if len(asked()) != 0 || !got.TLS || got.ServerName != "" || got.Mech != "PLAIN" || got.User != "shop" {
			t.Errorf("looked up %q, TLS %v with server name %q, %q as %q; want no lookup, TLS without SNI, PLAIN as shop",
				asked(), got.TLS, got.ServerName, got.Mech, got.User)
		}
	})
}

// resolveOnly makes the process's resolver answer A queries for exactly
// name (compared byte for byte, case included) with addr, and every other
// query with NXDOMAIN, until the test ends; it returns the names asked so
// far. Tests that use it must not run in parallel.
func resolveOnly(t *testing.T, name, addr string) (asked func() []string) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var names []string
	ip := net.ParseIP(addr).To4()
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			mu.Lock()
			names = append(names, q.Name.String())
			mu.Unlock()
			known := q.Name.String() == name+"."
			h.Response, h.Authoritative, h.RecursionAvailable = true, true, true
			if !known {
				h.RCode = dnsmessage.RCodeNameError
			}
			b := dnsmessage.NewBuilder(nil, h)
			b.EnableCompression()
			_ = b.StartQuestions()
			_ = b.Question(q)
			if known && q.Type == dnsmessage.TypeA {
				_ = b.StartAnswers()
				_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 1},
					dnsmessage.AResource{A: [4]byte(ip)})
			}
			msg, err := b.Finish()
			if err != nil {
				continue
			}
			_, _ = pc.WriteTo(msg, from)
		}
	}()
	previous := net.DefaultResolver
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
	t.Cleanup(func() {
		net.DefaultResolver = previous
		pc.Close()
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(names)
	}
}
