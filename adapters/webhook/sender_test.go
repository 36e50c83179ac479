package webhook

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
)

func TestTheDialerChecksTheAddressItConnects(t *testing.T) {
	for address, want := range map[string][2]bool{ // allowed: without, with local addresses
		"93.184.215.14:443":          {true, true},
		"127.0.0.1:8080":             {false, true},
		"[::ffff:127.0.0.1]:8080":    {false, true},
		"[fe80::1%eth0]:80":          {false, true},
		"100.100.100.200:80":         {false, false},
		"[64:ff9b::a9fe:a9fe]:80":    {false, false},
		"[2606:4700:4700::1111]:443": {true, true},
		"not an address":             {false, false},
	} {
		var got [2]bool
		for i, allowLocal := range []bool{false, true} {
			err := addressCheck(allowLocal)("tcp", address, nil)
			if err != nil && err != ErrAddressNotAllowed {
				t.Fatalf("%s: %v", address, err)
			}
			got[i] = err == nil
		}
		if got != want {
			t.Errorf("%s: allowed %v, want %v", address, got, want)
		}
	}
}

func TestAFailureIsToldWithoutTheNetworkStacksWords(t *testing.T) {
	post := func(err error) error { return &url.Error{Op: "Post", URL: "http://10.1.2.3:8080/x", Err: err} }
	dial := func(err error) error {
		return post(&net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 8080}, Err: err})
	}
	for want, err := range map[string]error{
		"address not allowed":                                  dial(ErrAddressNotAllowed),
		"could not resolve the host name":                      dial(&net.DNSError{Err: "no such host", Name: "shop.example", Server: "10.255.255.53:53", IsNotFound: true}),
		"connection refused":                                   dial(os.NewSyscallError("connect", syscall.ECONNREFUSED)),
		"timed out connecting after 5 s":                       dial(timeout{}),
		"timed out":                                            post(context.DeadlineExceeded),
		"the receiver reset the connection":                    post(&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}),
		"the receiver closed the connection without answering": post(io.EOF),
		"TLS handshake failed: the certificate is not signed by a trusted authority": post(x509.UnknownAuthorityError{}),
		"the delivery failed without an answer":                                      post(errors.New("dial tcp 10.1.2.3:8080: something new")),
	} {
		if got := Failure(err).Error(); got != want {
			t.Errorf("Failure(%v) = %q, want %q", err, got, want)
		}
	}
}

type timeout struct{}

func (timeout) Error() string   { return "i/o timeout" }
func (timeout) Timeout() bool   { return true }
func (timeout) Temporary() bool { return true }
