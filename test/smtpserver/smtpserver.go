// Package smtpserver is an in-process SMTP server for tests: it keeps every
// mail it accepts, can refuse transactions on demand to exercise retries,
// and accepts any PLAIN credentials, on plain connections too.
package smtpserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one mail the server accepted.
type Message struct {
	From    string   // envelope sender (MAIL FROM)
	To      []string // envelope recipients (RCPT TO)
	Data    string   // the message exactly as received
	Subject string   // decoded Subject header
	Body    string   // decoded body, lines ending in "\n"
	User    string   // the PLAIN user the client authenticated as, "" without AUTH
	TLS     bool     // whether the mail arrived over TLS (STARTTLS or implicit)
}

// Option changes how Start sets the server up.
type Option func(*config)

type config struct {
	startTLS    bool
	implicitTLS bool
}

// WithSTARTTLS makes the server offer STARTTLS with a self-signed
// certificate; clients trust it through (*Server).ClientTLSConfig.
func WithSTARTTLS() Option { return func(c *config) { c.startTLS = true } }

// WithImplicitTLS makes the server speak TLS from the first byte (smtps)
// with a self-signed certificate; URL then starts with smtps://.
func WithImplicitTLS() Option { return func(c *config) { c.implicitTLS = true } }

// Server is a running test SMTP server.
type Server struct {
	srv    *smtp.Server
	addr   string
	scheme string
	client *tls.Config

	mu       sync.Mutex
	messages []Message
	refuse   int
	unknown  map[string]bool // recipients refused for good at RCPT
	arrived  chan struct{}   // closed and replaced whenever a message arrives
}

// Start listens on 127.0.0.1 on a free port and stops when t's test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}

	s := &Server{scheme: "smtp", arrived: make(chan struct{})}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{server: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtpserver: listen: %v", err)
	}
	if cfg.startTLS || cfg.implicitTLS {
		serverConfig, clientConfig := selfSignedTLS(t)
		s.client = clientConfig
		if cfg.implicitTLS {
			ln = tls.NewListener(ln, serverConfig)
			s.scheme = "smtps"
		} else {
			srv.TLSConfig = serverConfig
		}
	}
	s.srv = srv
	s.addr = ln.Addr().String()

	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		// Close misses a listener that Serve has not registered yet.
		_ = ln.Close()
		<-done
	})
	return s
}

// URL is the address to hand to the mail adapter: smtp://127.0.0.1:PORT
// (smtps:// with WithImplicitTLS).
func (s *Server) URL() string { return s.scheme + "://" + s.addr }

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.addr }

// ClientTLSConfig trusts the server's self-signed certificate; nil when the
// server was started without TLS.
func (s *Server) ClientTLSConfig() *tls.Config {
	if s.client == nil {
		return nil
	}
	return s.client.Clone()
}

// Messages returns the mails accepted so far, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// WaitFor waits until at least n mails have arrived and returns them all;
// it fails t when timeout passes first.
func (s *Server) WaitFor(t testing.TB, n int, timeout time.Duration) []Message {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		got, arrived := len(s.messages), s.arrived
		if got >= n {
			msgs := append([]Message(nil), s.messages...)
			s.mu.Unlock()
			return msgs
		}
		s.mu.Unlock()
		select {
		case <-arrived:
		case <-timer.C:
			t.Fatalf("smtpserver: waited %v for %d mails, got %d", timeout, n, got)
			return nil
		}
	}
}

// RefuseNext makes the next n transactions fail at DATA with 451, a
// temporary error after which a client should retry.
func (s *Server) RefuseNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = n
}

// RejectRecipient makes the server refuse mail to addr for good (550 at
// RCPT TO), as a server does for a mailbox that does not exist.
func (s *Server) RejectRecipient(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unknown == nil {
		s.unknown = map[string]bool{}
	}
	s.unknown[addr] = true
}

var errRefused = &smtp.SMTPError{
	Code:         451,
	EnhancedCode: smtp.EnhancedCode{4, 3, 0},
	Message:      "Refused by test server, try again later",
}

// accept stores a mail, or reports that it is to be refused.
func (s *Server) accept(m Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse > 0 {
		s.refuse--
		return errRefused
	}
	s.messages = append(s.messages, m)
	close(s.arrived)
	s.arrived = make(chan struct{})
	return nil
}

type session struct {
	server *Server
	conn   *smtp.Conn
	user   string
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(_, username, _ string) error {
		s.user = username
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.server.mu.Lock()
	unknown := s.server.unknown[to]
	s.server.mu.Unlock()
	if unknown {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such mailbox"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := s.conn.TLSConnectionState()
	m := Message{
		From: s.from,
		To:   append([]string(nil), s.to...),
		Data: string(raw),
		User: s.user,
		TLS:  isTLS,
	}
	// A message the parser cannot read is still kept: the test sees Data
	// and an empty Subject and Body, which is the clearest failure.
	m.Subject, m.Body, _ = parse(raw)
	return s.server.accept(m)
}

func (s *session) Reset() {
	s.from = ""
	s.to = nil
}

func (s *session) Logout() error { return nil }

// parse decodes the subject and the body of a single-part text message.
func parse(raw []byte) (subject, body string, err error) {
	msg, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		return "", "", err
	}
	var dec mime.WordDecoder
	subject, err = dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		subject = msg.Header.Get("Subject")
	}
	var r io.Reader = msg.Body
	switch strings.ToLower(strings.TrimSpace(msg.Header.Get("Content-Transfer-Encoding"))) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, err := io.ReadAll(r)
	body = strings.ReplaceAll(string(b), "\r\n", "\n")
	return subject, body, err
}

// selfSignedTLS makes a certificate for 127.0.0.1 and localhost, the server
// config that presents it and a client config that trusts it.
func selfSignedTLS(t testing.TB) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("smtpserver: key: %v", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "smtpserver test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("smtpserver: certificate: %v", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("smtpserver: certificate: %v", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}},
		MinVersion:   tls.VersionTLS12,
	}
	client = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return server, client
}
