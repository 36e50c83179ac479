// Package mail puts the ports.Mailer port on an SMTP server, or on the log
// when no server is configured.
package mail

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	gomail "github.com/wneessen/go-mail"
	"golang.org/x/net/idna"

	"github.com/shopstock/inventory/ports"
)

// sendTimeout bounds one delivery when the caller's context has no deadline,
// so a server that stops answering cannot hold a dispatcher forever.
const sendTimeout = time.Minute

// TLS policies for smtp:// (smtps:// is TLS from the first byte).
const (
	// TLSMandatory upgrades with STARTTLS or sends nothing: a server, or a
	// man in the middle, that does not offer it gets no mail and no
	// password.
	TLSMandatory = "mandatory"
	// TLSOpportunistic upgrades when STARTTLS is offered and sends in clear
	// otherwise; credentials still only go over TLS (or to localhost).
	TLSOpportunistic = "opportunistic"
	// TLSNone never upgrades and sends credentials in clear: only for a
	// relay on a trusted network.
	TLSNone = "none"
)

// Authentication mechanisms; AuthAuto takes the first of PLAIN, LOGIN and
// CRAM-MD5 that the server offers. XOAUTH2 is never picked automatically:
// its secret is an OAuth access token, not a password.
const (
	AuthAuto    = "auto"
	AuthPlain   = "plain"
	AuthLogin   = "login"
	AuthCRAMMD5 = "cram-md5"
	AuthXOAUTH2 = "xoauth2"
)

// SMTP delivers mails to one SMTP server.
type SMTP struct {
	host      string // ASCII (punycode) host name or IP address
	port      int
	implicit  bool // smtps://
	user      string
	pass      string
	hasAuth   bool
	from      *mail.Address // address in ASCII form
	tls       string
	auth      string
	tlsConfig *tls.Config
}

var _ ports.Mailer = (*SMTP)(nil)

// Option refines NewSMTP.
type Option func(*SMTP) error

// WithTLSPolicy sets the STARTTLS policy of smtp:// (TLSMandatory,
// TLSOpportunistic or TLSNone); "" keeps the default: mandatory when the URL
// has credentials, opportunistic when it has none. smtps:// is TLS anyway
// and refuses TLSNone.
func WithTLSPolicy(policy string) Option {
	return func(s *SMTP) error {
		switch policy {
		case "":
		case TLSMandatory, TLSOpportunistic, TLSNone:
			s.tls = policy
		default:
			return fmt.Errorf("mail: unknown TLS policy %q: want mandatory, opportunistic or none", policy)
		}
		return nil
	}
}

// WithAuth sets the authentication mechanism for the URL's credentials:
// AuthAuto (also for ""), AuthPlain, AuthLogin, AuthCRAMMD5 or AuthXOAUTH2
// (the password part of the URL is then the access token).
func WithAuth(mechanism string) Option {
	return func(s *SMTP) error {
		switch m := strings.ToLower(mechanism); m {
		case "":
		case AuthAuto, AuthPlain, AuthLogin, AuthCRAMMD5, AuthXOAUTH2:
			s.auth = m
		default:
			return fmt.Errorf("mail: unknown SMTP authentication %q: want auto, plain, login, cram-md5 or xoauth2", mechanism)
		}
		return nil
	}
}

// NewSMTP reads rawURL (smtp://user:pass@host:port or smtps://…; the port
// defaults to 25 and 465) and the sender address from.
func NewSMTP(rawURL, from string, opts ...Option) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// url.Error repeats the whole URL, password included: keep only the reason.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("mail: invalid SMTP URL: %v", err)
	}
	s := &SMTP{auth: AuthAuto}
	switch u.Scheme {
	case "smtp":
		s.port = 25
	case "smtps":
		s.port, s.implicit = 465, true
	default:
		return nil, fmt.Errorf("mail: invalid SMTP URL: scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, errors.New("mail: invalid SMTP URL: no host")
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("mail: invalid SMTP URL: unexpected path %q", u.Path)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("mail: invalid SMTP URL: bad port %q", p)
		}
		s.port = n
	}
	if s.host, err = asciiHost(u.Hostname()); err != nil {
		return nil, fmt.Errorf("mail: invalid SMTP URL: host: %v", err)
	}
	if u.User != nil && u.User.Username() != "" {
		s.hasAuth = true
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	if s.from, err = parseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: invalid sender address %q: %v", from, err)
	}
	for _, o := range opts {
		if err := o(s); err != nil {
			return nil, err
		}
	}
	switch {
	case s.implicit && s.tls == TLSNone:
		return nil, errors.New("mail: smtps:// is TLS from the first byte; INVENTORY_SMTP_TLS=none contradicts it")
	case s.tls == "" && s.hasAuth:
		s.tls = TLSMandatory
	case s.tls == "":
		s.tls = TLSOpportunistic
	}
	return s, nil
}

// TLSPolicy is the STARTTLS policy in force ("implicit" for smtps://).
func (s *SMTP) TLSPolicy() string {
	if s.implicit {
		return "implicit"
	}
	return s.tls
}

// WithTLSConfig returns a copy of s that uses c for STARTTLS and smtps, for
// example to trust a test server's certificate. The server name is filled in
// from the URL when c leaves it empty.
func (s *SMTP) WithTLSConfig(c *tls.Config) *SMTP {
	cp := *s
	cp.tlsConfig = c
	return &cp
}

// Send delivers m in one SMTP transaction. It gives up when ctx is done, and
// after a minute when ctx has no deadline. A 5xx refusal of the recipient or
// the message wraps ports.ErrUndeliverable; anything else is worth a retry.
func (s *SMTP) Send(ctx context.Context, m ports.Mail) error {
	to, err := parseAddress(m.To)
	if err != nil {
		return fmt.Errorf("mail: invalid recipient %q: %v: %w", m.To, err, ports.ErrUndeliverable)
	}
	msg, err := s.compose(to, m)
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendTimeout)
		defer cancel()
	}
	client, err := gomail.NewClient(s.host, s.clientOptions(ctx)...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	addr := net.JoinHostPort(s.host, strconv.Itoa(s.port))
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		ctxErr := ctx.Err()
		if ctxErr == nil && !time.Now().Before(deadline(ctx)) {
			// The conn's deadline can fire a moment before ctx notices.
			ctxErr = context.DeadlineExceeded
		}
		if ctxErr != nil {
			return fmt.Errorf("mail: send to %s: %w (%v)", addr, ctxErr, err)
		}
		return fmt.Errorf("mail: send to %s: %w", addr, permanent(err))
	}
	return nil
}

func (s *SMTP) clientOptions(ctx context.Context) []gomail.Option {
	tlsConfig := s.clientTLSConfig()
	opts := []gomail.Option{
		gomail.WithPort(s.port),
		gomail.WithTimeout(max(time.Until(deadline(ctx)), time.Millisecond)),
		gomail.WithTLSConfig(tlsConfig),
		gomail.WithDialContextFunc(func(dialCtx context.Context, network, _ string) (net.Conn, error) {
			// go-mail joins host and port with a bare colon, which an IPv6
			// address ([::1] in the URL) does not survive.
			var d net.Dialer
			conn, err := d.DialContext(dialCtx, network, net.JoinHostPort(s.host, strconv.Itoa(s.port)))
			if err != nil {
				return nil, err
			}
			c := watch(ctx, conn)
			if !s.implicit {
				return c, nil
			}
			tc := tls.Client(c, tlsConfig)
			if err := tc.HandshakeContext(dialCtx); err != nil {
				c.Close()
				return nil, fmt.Errorf("tls handshake: %w", err)
			}
			return tc, nil
		}),
	}
	switch {
	case s.implicit:
		// The dialer above speaks TLS; go-mail must not try STARTTLS.
		opts = append(opts, gomail.WithSSL())
	case s.tls == TLSMandatory:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case s.tls == TLSOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	}
	if !s.hasAuth {
		return opts
	}
	// go-mail's PLAIN and LOGIN refuse to send a password in clear (except
	// to localhost); with the policy none the operator has chosen to.
	inClear := s.tls == TLSNone && !s.implicit
	plain, login := gomail.SMTPAuthPlain, gomail.SMTPAuthLogin
	if inClear {
		plain, login = gomail.SMTPAuthPlainNoEnc, gomail.SMTPAuthLoginNoEnc
	}
	opts = append(opts, gomail.WithUsername(s.user), gomail.WithPassword(s.pass))
	switch s.auth {
	case AuthPlain:
		opts = append(opts, gomail.WithSMTPAuth(plain))
	case AuthLogin:
		opts = append(opts, gomail.WithSMTPAuth(login))
	case AuthCRAMMD5:
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthCramMD5))
	case AuthXOAUTH2:
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthXOAUTH2))
	default:
		opts = append(opts, gomail.WithOpportunisticSMTPAuth(plain, login, gomail.SMTPAuthCramMD5))
	}
	return opts
}

func deadline(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

// permanent marks a 5xx refusal of the recipient or the message as
// undeliverable; 4xx, a refused sender, authentication and connection
// trouble stay worth a retry.
func permanent(err error) error {
	var se *gomail.SendError
	if errors.As(err, &se) && (se.Reason == gomail.ErrSMTPRcptTo || se.Reason == gomail.ErrSMTPDataClose) &&
		se.ErrorCode() >= 500 {
		return fmt.Errorf("%w: %w", err, ports.ErrUndeliverable)
	}
	return err
}

func (s *SMTP) clientTLSConfig() *tls.Config {
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.tlsConfig != nil {
		c = s.tlsConfig.Clone()
	}
	if c.ServerName == "" {
		c.ServerName = s.host
	}
	return c
}

// compose builds m as a quoted-printable UTF-8 text mail, marked as sent by
// a machine (RFC 3834) so that auto-responders stay quiet.
func (s *SMTP) compose(to *mail.Address, m ports.Mail) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	if err := msg.FromFormat(s.from.Name, s.from.Address); err != nil {
		return nil, fmt.Errorf("mail: sender: %w", err)
	}
	if err := msg.AddToFormat(to.Name, to.Address); err != nil {
		return nil, fmt.Errorf("mail: invalid recipient %q: %v: %w", m.To, err, ports.ErrUndeliverable)
	}
	// Line breaks in the subject would start new header fields.
	msg.Subject(strings.Join(strings.FieldsFunc(m.Subject, func(r rune) bool { return r == '\r' || r == '\n' }), " "))
	msg.SetDate()
	id, err := messageID(s.from.Address)
	if err != nil {
		return nil, err
	}
	msg.SetMessageIDWithValue(id)
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	// Instead of go-mail's name and version.
	msg.SetUserAgent("inventory")
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	return msg, nil
}

// parseAddress reads an RFC 5322 address and writes an international
// domain in punycode (bücher.de becomes xn--bcher-kva.de), which every
// server accepts; the local part is left as it is.
func parseAddress(raw string) (*mail.Address, error) {
	a, err := mail.ParseAddress(raw)
	if err != nil {
		return nil, err
	}
	at := strings.LastIndexByte(a.Address, '@')
	if at < 0 {
		return nil, errors.New("no domain")
	}
	domain, err := asciiHost(a.Address[at+1:])
	if err != nil {
		return nil, fmt.Errorf("domain: %v", err)
	}
	a.Address = a.Address[:at+1] + domain
	return a, nil
}

// asciiHost turns an international domain name into its ASCII form; ASCII
// names (an IP address, or a container name with an underscore, which IDNA
// rules would refuse) pass unchanged.
func asciiHost(host string) (string, error) {
	for i := 0; i < len(host); i++ {
		if host[i] >= utf8.RuneSelf {
			return idna.Lookup.ToASCII(host)
		}
	}
	return host, nil
}

func messageID(from string) (string, error) {
	var r [16]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("mail: message id: %w", err)
	}
	domain := "localhost"
	if at := strings.LastIndexByte(from, '@'); at >= 0 && at < len(from)-1 {
		domain = from[at+1:]
	}
	return hex.EncodeToString(r[:]) + "@" + domain, nil
}

// watch ties conn to ctx: go-mail sets its own deadlines, so every deadline
// is cut to ctx's, and ctx ending moves it to now, which unblocks any read
// or write in progress.
func watch(ctx context.Context, conn net.Conn) net.Conn {
	w := &ctxConn{Conn: conn, ctx: ctx}
	stop := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		_ = conn.SetDeadline(time.Now())
	})
	w.stop = stop
	return w
}

type ctxConn struct {
	net.Conn
	ctx  context.Context
	stop func() bool
	mu   sync.Mutex
}

func (c *ctxConn) cut(t time.Time) time.Time {
	if c.ctx.Err() != nil {
		return time.Now()
	}
	if d, ok := c.ctx.Deadline(); ok && (t.IsZero() || d.Before(t)) {
		return d
	}
	return t
}

func (c *ctxConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Conn.SetDeadline(c.cut(t))
}

func (c *ctxConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Conn.SetReadDeadline(c.cut(t))
}

func (c *ctxConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Conn.SetWriteDeadline(c.cut(t))
}

func (c *ctxConn) Close() error {
	c.stop()
	return c.Conn.Close()
}
