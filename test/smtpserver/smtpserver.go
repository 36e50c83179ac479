// Package smtpserver is an in-process SMTP server for tests: it keeps every
// mail it accepts, can refuse transactions on demand to exercise retries,
// and accepts any PLAIN credentials, on plain connections too. It can offer
// LOGIN, CRAM-MD5 and XOAUTH2 as well and check the credentials.
package smtpserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"os"
	"slices"
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
	User    string   // the user the client authenticated as, "" without AUTH
	Mech    string   // the SASL mechanism it authenticated with, "" without AUTH
	TLS     bool     // whether the mail arrived over TLS (STARTTLS or implicit)
	// ServerName is the host name the client asked for in its TLS
	// handshake (SNI); "" without TLS, and for an IP address, which SNI
	// does not carry.
	ServerName string
}

// Option changes how Start sets the server up.
type Option func(*config)

type config struct {
	startTLS    bool
	implicitTLS bool
	mechs       []string
	user, pass  string
	certNames   []string
	listen      string
}

// WithAuth makes the server offer these SASL mechanisms (sasl.Plain,
// sasl.Login, "CRAM-MD5", "XOAUTH2") instead of PLAIN alone.
func WithAuth(mechs ...string) Option { return func(c *config) { c.mechs = mechs } }

// WithCredentials makes the server accept only this user and password (the
// access token for XOAUTH2) instead of any.
func WithCredentials(user, pass string) Option {
	return func(c *config) { c.user, c.pass = user, pass }
}

// WithSTARTTLS makes the server offer STARTTLS with a self-signed
// certificate; clients trust it through (*Server).ClientTLSConfig.
func WithSTARTTLS() Option { return func(c *config) { c.startTLS = true } }

// WithCertificateNames adds host names to the self-signed certificate,
// which is otherwise for 127.0.0.1, ::1 and localhost only.
func WithCertificateNames(names ...string) Option {
	return func(c *config) { c.certNames = append(c.certNames, names...) }
}

// WithListenAddress makes the server listen on addr (host:port; port 0 for
// a free one) instead of 127.0.0.1:0.
func WithListenAddress(addr string) Option { return func(c *config) { c.listen = addr } }

// WithImplicitTLS makes the server speak TLS from the first byte (smtps)
// with a self-signed certificate; URL then starts with smtps://.
func WithImplicitTLS() Option { return func(c *config) { c.implicitTLS = true } }

// Server is a running test SMTP server.
type Server struct {
	srv    *smtp.Server
	addr   string
	scheme string
	client *tls.Config

	mechs      []string
	user, pass string

	mu       sync.Mutex
	messages []Message
	auths    int // AUTH commands seen
	mails    int // MAIL FROM commands seen
	refuse   int
	reject   int             // transactions to refuse for good at DATA
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

	s := &Server{scheme: "smtp", arrived: make(chan struct{}), mechs: cfg.mechs, user: cfg.user, pass: cfg.pass}
	if len(s.mechs) == 0 {
		s.mechs = []string{sasl.Plain}
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{server: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)

	listen := cfg.listen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		t.Fatalf("smtpserver: listen: %v", err)
	}
	if cfg.startTLS || cfg.implicitTLS {
		serverConfig, clientConfig := selfSignedTLS(t, cfg.certNames...)
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
// (smtps:// with WithImplicitTLS; the address of WithListenAddress).
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

// Seen tells how many AUTH and MAIL FROM commands the server has received,
// accepted or not: a client that must not talk to it has sent neither.
func (s *Server) Seen() (auths, mails int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.auths, s.mails
}

// RefuseNext makes the next n transactions fail at DATA with 451, a
// temporary error after which a client should retry.
func (s *Server) RefuseNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = n
}

// RejectNext makes the next n transactions fail at DATA with 554, a
// permanent refusal of the message.
func (s *Server) RejectNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject = n
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
	if s.reject > 0 {
		s.reject--
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "Message refused by test server"}
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
	mech   string
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return s.server.mechs }

func (s *session) Auth(mech string) (sasl.Server, error) {
	s.server.mu.Lock()
	s.server.auths++
	s.server.mu.Unlock()
	if !slices.Contains(s.server.mechs, mech) {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	// check accepts any credentials unless WithCredentials set some.
	check := func(user, pass string) error {
		if s.server.user != "" && (user != s.server.user || pass != s.server.pass) {
			return smtp.ErrAuthFailed
		}
		s.user, s.mech = user, mech
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(_, user, pass string) error { return check(user, pass) }), nil
	case sasl.Login:
		return &loginServer{check: check}, nil
	case "CRAM-MD5":
		return &cramMD5Server{check: check, server: s.server}, nil
	case "XOAUTH2":
		return &xoauth2Server{check: check}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.server.mu.Lock()
	s.server.mails++
	s.server.mu.Unlock()
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
	state, isTLS := s.conn.TLSConnectionState()
	m := Message{
		From:       s.from,
		To:         append([]string(nil), s.to...),
		Data:       string(raw),
		User:       s.user,
		Mech:       s.mech,
		TLS:        isTLS,
		ServerName: state.ServerName,
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

// loginServer speaks the LOGIN mechanism: it asks for the user name and
// then the password.
type loginServer struct {
	check func(user, pass string) error
	user  string
	step  int
}

func (l *loginServer) Next(response []byte) ([]byte, bool, error) {
	l.step++
	switch l.step {
	case 1:
		if response != nil {
			l.user = string(response)
			l.step++
			return []byte("Password:"), false, nil
		}
		return []byte("Username:"), false, nil
	case 2:
		l.user = string(response)
		return []byte("Password:"), false, nil
	default:
		return nil, true, l.check(l.user, string(response))
	}
}

// cramMD5Server speaks CRAM-MD5 (RFC 2195): it sends a challenge and checks
// the HMAC-MD5 of it keyed with the password; without WithCredentials any
// well-formed answer passes.
type cramMD5Server struct {
	check     func(user, pass string) error
	server    *Server
	challenge string
}

func (c *cramMD5Server) Next(response []byte) ([]byte, bool, error) {
	if c.challenge == "" {
		c.challenge = fmt.Sprintf("<%d.%d@localhost>", time.Now().UnixNano(), os.Getpid())
		return []byte(c.challenge), false, nil
	}
	user, digest, ok := strings.Cut(string(response), " ")
	if !ok {
		return nil, true, errors.New("malformed CRAM-MD5 response")
	}
	if c.server.user == "" {
		return nil, true, c.check(user, "")
	}
	mac := hmac.New(md5.New, []byte(c.server.pass))
	mac.Write([]byte(c.challenge))
	if !hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(digest)) {
		return nil, true, smtp.ErrAuthFailed
	}
	return nil, true, c.check(user, c.server.pass)
}

// xoauth2Server reads Google's XOAUTH2 initial response,
// "user=U\x01auth=Bearer TOKEN\x01\x01".
type xoauth2Server struct {
	check func(user, pass string) error
}

func (x *xoauth2Server) Next(response []byte) ([]byte, bool, error) {
	if response == nil {
		return []byte{}, false, nil
	}
	var user, token string
	for _, field := range strings.Split(string(response), "\x01") {
		switch {
		case strings.HasPrefix(field, "user="):
			user = strings.TrimPrefix(field, "user=")
		case strings.HasPrefix(field, "auth=Bearer "):
			token = strings.TrimPrefix(field, "auth=Bearer ")
		}
	}
	if user == "" || token == "" {
		return nil, true, errors.New("malformed XOAUTH2 response")
	}
	return nil, true, x.check(user, token)
}

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

// selfSignedTLS makes a certificate for 127.0.0.1, ::1, localhost and
// names, the server config that presents it and a client config that
// trusts it.
func selfSignedTLS(t testing.TB, names ...string) (server, client *tls.Config) {
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
		DNSNames:     append([]string{"localhost"}, names...),
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
