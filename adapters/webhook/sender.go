// Package webhook delivers events over HTTP as the Standard Webhooks
// specification has it (https://www.standardwebhooks.com): signed POSTs,
// only to global unicast addresses (local ones when allowed). What went
// wrong is told in words (Failure), never as a raw error that would show
// the receiver's or the resolver's address to whoever reads the log.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"

	domwebhook "github.com/shopstock/inventory/domain/webhook"
	"github.com/shopstock/inventory/ports"
)

// ErrAddressNotAllowed is a delivery refused because the receiver's
// address is not one a delivery may go to (domwebhook.DeliverableAddress).
var ErrAddressNotAllowed = errors.New("address not allowed")

// Sender makes delivery attempts; it is a ports.WebhookSender.
type Sender struct {
	client     *http.Client
	allowLocal bool
}

// NewSender returns a sender that connects only to the addresses
// domwebhook.DeliverableAddress admits; allowLocal lets loopback, private,
// link-local and unspecified ones through. The check runs on the address
// actually dialled, after name resolution, so a host name that resolves (or
// is re-bound) to a refused address is refused as well; proxies from the
// environment are not used, since the check would then see the proxy's
// address instead of the receiver's.
func NewSender(allowLocal bool) *Sender {
	dialer := &net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second, Control: addressCheck(allowLocal)}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Sender{allowLocal: allowLocal, client: &http.Client{
		Transport: transport,
		// A redirect is not a delivery: the receiver must answer 2xx itself.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// dialTimeout bounds connecting, so that a receiver that does not answer
// leaves time for nothing else.
const dialTimeout = 5 * time.Second

// addressCheck is the dialer's Control function: address is the resolved
// IP and port about to be connected.
func addressCheck(allowLocal bool) func(string, string, syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !domwebhook.DeliverableAddress(ap.Addr(), allowLocal) {
			return ErrAddressNotAllowed
		}
		return nil
	}
}

// Sign computes the webhook-signature header value for a message.
func Sign(secret, msgID string, timestamp time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, domwebhook.SecretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhook secret: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", msgID, timestamp.Unix())
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Send posts one signed delivery and returns the response's status code.
func (s *Sender) Send(ctx context.Context, r ports.WebhookRequest) (int, error) {
	signature, err := Sign(r.Secret, r.MessageID, r.Timestamp, r.Body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return 0, errors.New("the URL cannot be used") // checked when stored, so this is not expected
	}
	// A literal address is judged before dialling: the same address, and the
	// same answer on a host without the address family.
	if a, err := netip.ParseAddr(req.URL.Hostname()); err == nil && !domwebhook.DeliverableAddress(a, s.allowLocal) {
		return 0, ErrAddressNotAllowed
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "inventory-webhooks/1")
	req.Header.Set("webhook-id", r.MessageID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(r.Timestamp.Unix(), 10))
	req.Header.Set("webhook-signature", signature)
	res, err := s.client.Do(req)
	if err != nil {
		return 0, Failure(err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // lets the connection be reused
	return res.StatusCode, nil
}

// Failure says in words why an attempt got no answer. The words hold no
// address, name or raw error of the network stack: a delivery's lastError is
// shown to every admin, and a raw dial error would name internal addresses
// (the resolver's, for one).
func Failure(err error) error {
	var (
		dns      *net.DNSError
		op       *net.OpError
		netErr   net.Error
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
		alert    tls.AlertError
		record   tls.RecordHeaderError
	)
	switch {
	case errors.Is(err, ErrAddressNotAllowed):
		return ErrAddressNotAllowed
	case errors.Is(err, context.Canceled):
		return errors.New("cancelled")
	case errors.As(err, &dns):
		if dns.IsTimeout {
			return errors.New("timed out resolving the host name")
		}
		return errors.New("could not resolve the host name")
	case errors.As(err, &unknown):
		return errors.New("TLS handshake failed: the certificate is not signed by a trusted authority")
	case errors.As(err, &hostname):
		return errors.New("TLS handshake failed: the certificate is not for the URL's host")
	case errors.As(err, &invalid):
		if invalid.Reason == x509.Expired {
			return errors.New("TLS handshake failed: the certificate has expired or is not yet valid")
		}
		return errors.New("TLS handshake failed: the certificate is not valid")
	case errors.As(err, &verify), errors.As(err, &alert), errors.As(err, &record):
		return errors.New("TLS handshake failed")
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		// net/http's own words for a TLS handshake that met plain HTTP; it
		// has no error value to test for.
		return errors.New("TLS handshake failed: the receiver answered in plain HTTP")
	case errors.As(err, &op) && op.Op == "dial" && op.Timeout():
		return fmt.Errorf("timed out connecting after %d s", int(dialTimeout.Seconds()))
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return errors.New("timed out")
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused")
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return errors.New("the receiver reset the connection")
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return errors.New("the receiver's host is unreachable")
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the receiver closed the connection without answering")
	}
	return errors.New("the delivery failed without an answer")
}
