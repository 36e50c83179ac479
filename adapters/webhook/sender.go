// Package webhook delivers events over HTTP as the Standard Webhooks
// specification has it (https://www.standardwebhooks.com): signed POSTs,
// refused for private addresses unless allowed.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	domwebhook "github.com/shopstock/inventory/domain/webhook"
	"github.com/shopstock/inventory/ports"
)

// ErrAddressNotAllowed is a delivery refused because the receiver's
// address is loopback, private, link-local or unspecified.
var ErrAddressNotAllowed = errors.New("address not allowed")

// Sender makes delivery attempts; it is a ports.WebhookSender.
type Sender struct {
	client *http.Client
}

// NewSender returns a sender. Unless allowPrivate, it refuses to connect to
// loopback, private, link-local and unspecified addresses. The check runs on
// the address actually dialled, after name resolution, so a host name that
// resolves (or is re-bound) to such an address is refused as well; proxies
// from the environment are not used, since the check would then see the
// proxy's address instead of the receiver's.
func NewSender(allowPrivate bool) *Sender {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = refusePrivate
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Sender{client: &http.Client{
		Transport: transport,
		// A redirect is not a delivery: the receiver must answer 2xx itself.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// refusePrivate is the dialer's Control function: address is the resolved
// IP and port about to be connected.
func refusePrivate(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return ErrAddressNotAllowed
	}
	ip := net.ParseIP(host)
	if ip == nil || Refused(ip) {
		return ErrAddressNotAllowed
	}
	return nil
}

// Refused tells whether deliveries to ip are refused.
func Refused(ip net.IP) bool {
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsUnspecified()
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
		return 0, fmt.Errorf("webhook URL: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "inventory-webhooks/1")
	req.Header.Set("webhook-id", r.MessageID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(r.Timestamp.Unix(), 10))
	req.Header.Set("webhook-signature", signature)
	res, err := s.client.Do(req)
	if err != nil {
		if errors.Is(err, ErrAddressNotAllowed) {
			return 0, ErrAddressNotAllowed
		}
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // lets the connection be reused
	return res.StatusCode, nil
}
