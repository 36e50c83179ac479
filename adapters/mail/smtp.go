// Package mail puts the ports.Mailer port on an SMTP server, or on the log
// when no server is configured.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/shopstock/inventory/ports"
)

// sendTimeout bounds one delivery when the caller's context has no deadline,
// so a server that stops answering cannot hold a dispatcher forever.
const sendTimeout = time.Minute

// SMTP delivers mails to one SMTP server: smtp:// upgrades with STARTTLS
// when the server offers it, smtps:// speaks TLS from the first byte.
type SMTP struct {
	addr      string // host:port
	host      string
	implicit  bool // smtps://
	user      string
	pass      string
	hasAuth   bool
	from      *mail.Address
	tlsConfig *tls.Config
}

var _ ports.Mailer = (*SMTP)(nil)

// NewSMTP reads rawURL (smtp://user:pass@host:port or smtps://…; the port
// defaults to 25 and 465) and the sender address from. Credentials, when
// given, are sent with AUTH PLAIN.
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// url.Error repeats the whole URL, password included: keep only the reason.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("mail: invalid SMTP URL: %v", err)
	}
	s := &SMTP{}
	port := ""
	switch u.Scheme {
	case "smtp":
		port = "25"
	case "smtps":
		port, s.implicit = "465", true
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
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("mail: invalid SMTP URL: bad port %q", p)
		}
		port = p
	}
	s.host = u.Hostname()
	s.addr = net.JoinHostPort(s.host, port)
	if u.User != nil && u.User.Username() != "" {
		s.hasAuth = true
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	if s.from, err = mail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: invalid sender address %q: %v", from, err)
	}
	return s, nil
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
// after a minute when ctx has no deadline.
func (s *SMTP) Send(ctx context.Context, m ports.Mail) error {
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return fmt.Errorf("mail: invalid recipient %q: %v: %w", m.To, err, ports.ErrUndeliverable)
	}
	msg, err := s.compose(to, m, time.Now())
	if err != nil {
		return err
	}

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendTimeout)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()

	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return fmt.Errorf("mail: dial %s: %w", s.addr, err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(deadline); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	// A deadline alone misses a cancellation; moving it to now unblocks any
	// read or write in progress.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()

	if err := s.transact(conn, to.Address, msg); err != nil {
		ctxErr := ctx.Err()
		if ctxErr == nil && !time.Now().Before(deadline) {
			// The conn's deadline can fire a moment before ctx notices.
			ctxErr = context.DeadlineExceeded
		}
		if ctxErr != nil {
			return fmt.Errorf("mail: send to %s: %w (%v)", s.addr, ctxErr, err)
		}
		return fmt.Errorf("mail: send to %s: %w", s.addr, err)
	}
	return nil
}

func (s *SMTP) transact(conn net.Conn, rcpt string, msg []byte) error {
	if s.implicit {
		tc := tls.Client(conn, s.clientTLSConfig())
		if err := tc.Handshake(); err != nil {
			return fmt.Errorf("tls handshake: %w", err)
		}
		conn = tc
	}
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		return err
	}
	defer c.Close()

	if !s.implicit {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.clientTLSConfig()); err != nil {
				return fmt.Errorf("starttls: %w", err)
			}
		}
	}
	if s.hasAuth {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("credentials configured but the server offers no AUTH")
		}
		if err := c.Auth(smtp.PlainAuth("", s.user, s.pass, s.host)); err != nil {
			return fmt.Errorf("auth: %w", err)
		}
	}
	if err := c.Mail(s.from.Address); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(rcpt); err != nil {
		return fmt.Errorf("RCPT TO: %w", permanent(err))
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("DATA: %w", permanent(err))
	}
	// The server has taken the mail; a failed QUIT must not make the caller
	// send it a second time.
	_ = c.Quit()
	return nil
}

// permanent marks a 5xx refusal of the recipient or the message as
// undeliverable; 4xx and connection trouble stay worth a retry.
func permanent(err error) error {
	var reply *textproto.Error
	if errors.As(err, &reply) && reply.Code >= 500 {
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

// compose writes m as an RFC 5322 message with a quoted-printable UTF-8 body.
func (s *SMTP) compose(to *mail.Address, m ports.Mail, now time.Time) ([]byte, error) {
	id, err := messageID(s.from.Address)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	header := func(name, value string) { b.WriteString(name + ": " + value + "\r\n") }
	header("From", s.from.String())
	header("To", to.String())
	header("Subject", encodeSubject(m.Subject))
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", id)
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	if _, err := qp.Write([]byte(m.Body)); err != nil {
		return nil, fmt.Errorf("mail: encode body: %w", err)
	}
	if err := qp.Close(); err != nil {
		return nil, fmt.Errorf("mail: encode body: %w", err)
	}
	return b.Bytes(), nil
}

// encodeSubject RFC 2047-encodes a non-ASCII subject and folds its encoded
// words onto separate lines. Line breaks in the subject would start new
// header fields, so they become spaces.
func encodeSubject(subject string) string {
	subject = strings.Join(strings.FieldsFunc(subject, func(r rune) bool { return r == '\r' || r == '\n' }), " ")
	return strings.ReplaceAll(mime.QEncoding.Encode("utf-8", subject), "?= =?", "?=\r\n =?")
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
	return "<" + hex.EncodeToString(r[:]) + "@" + domain + ">", nil
}
