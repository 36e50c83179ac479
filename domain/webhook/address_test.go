package webhook

import (
	"net/netip"
	"testing"
)

// Each special-purpose range: addresses at both of its ends are refused
// (the local kinds unless allowed), the addresses just outside it are
// delivered to, where they are global unicast themselves.
func TestDeliveriesGoOnlyToGlobalUnicastAddresses(t *testing.T) {
	const ones = "ffff:ffff:ffff:ffff:ffff"
	for _, r := range []struct {
		name    string
		local   bool
		inside  []string
		outside []string
	}{
		{"0.0.0.0/32 unspecified", true, []string{"0.0.0.0"}, nil},
		{"10.0.0.0/8 private", true, []string{"10.0.0.0", "10.255.255.255"}, []string{"9.255.255.255", "11.0.0.0"}},
		{"127.0.0.0/8 loopback", true, []string{"127.0.0.0", "127.0.0.1", "127.255.255.255"}, []string{"126.255.255.255", "128.0.0.0"}},
		{"169.254.0.0/16 link-local", true, []string{"169.254.0.0", "169.254.169.254", "169.254.255.255"}, []string{"169.253.255.255", "169.255.0.0"}},
		{"172.16.0.0/12 private", true, []string{"172.16.0.0", "172.31.255.255"}, []string{"172.15.255.255", "172.32.0.0"}},
		{"192.168.0.0/16 private", true, []string{"192.168.0.0", "192.168.255.255"}, []string{"192.167.255.255", "192.169.0.0"}},
		{"::/128 unspecified", true, []string{"::"}, nil},
		{"::1/128 loopback", true, []string{"::1"}, nil},
		{"fc00::/7 unique local", true, []string{"fc00::", "fdff:ffff:ffff:" + ones}, nil},
		{"fe80::/10 link-local", true, []string{"fe80::", "fe80::1%eth0", "febf:ffff:ffff:" + ones}, nil},

		{"0.0.0.0/8 this network", false, []string{"0.0.0.1", "0.255.255.255"}, []string{"1.0.0.0"}},
		{"100.64.0.0/10 shared", false, []string{"100.64.0.0", "100.100.100.200", "100.127.255.255"}, []string{"100.63.255.255", "100.128.0.0"}},
		{"192.0.0.0/24 IETF", false, []string{"192.0.0.0", "192.0.0.170", "192.0.0.255"}, []string{"191.255.255.255", "192.0.1.0"}},
		{"192.0.2.0/24 TEST-NET-1", false, []string{"192.0.2.0", "192.0.2.255"}, []string{"192.0.1.255", "192.0.3.0"}},
		{"192.31.196.0/24 AS112", false, []string{"192.31.196.0", "192.31.196.255"}, []string{"192.31.195.255", "192.31.197.0"}},
		{"192.52.193.0/24 AMT", false, []string{"192.52.193.0", "192.52.193.255"}, []string{"192.52.192.255", "192.52.194.0"}},
		{"192.88.99.0/24 6to4 relay", false, []string{"192.88.99.0", "192.88.99.255"}, []string{"192.88.98.255", "192.88.100.0"}},
		{"192.175.48.0/24 AS112", false, []string{"192.175.48.0", "192.175.48.255"}, []string{"192.175.47.255", "192.175.49.0"}},
		{"198.18.0.0/15 benchmarking", false, []string{"198.18.0.0", "198.19.255.255"}, []string{"198.17.255.255", "198.20.0.0"}},
		{"198.51.100.0/24 TEST-NET-2", false, []string{"198.51.100.0", "198.51.100.255"}, []string{"198.51.99.255", "198.51.101.0"}},
		{"203.0.113.0/24 TEST-NET-3", false, []string{"203.0.113.0", "203.0.113.255"}, []string{"203.0.112.255", "203.0.114.0"}},
		{"224.0.0.0/4 multicast", false, []string{"224.0.0.0", "239.255.255.255"}, []string{"223.255.255.255"}},
		{"240.0.0.0/4 reserved", false, []string{"240.0.0.0", "255.255.255.254", "255.255.255.255"}, nil},
		{"::/96 IPv4-compatible", false, []string{"::2", "::ffff:ffff"}, nil},
		{"::ffff:0:0:0/96 IPv4-translated", false, []string{"::ffff:0:0:0", "::ffff:0:808:808"}, nil},
		{"64:ff9b::/96 NAT64", false, []string{"64:ff9b::", "64:ff9b::a9fe:a9fe", "64:ff9b::ffff:ffff"}, nil},
		{"64:ff9b:1::/48 local NAT64", false, []string{"64:ff9b:1::", "64:ff9b:1:" + ones}, nil},
		{"100::/64 discard", false, []string{"100::", "100::ffff:ffff:ffff:ffff"}, nil},
		{"100:0:0:1::/64 dummy", false, []string{"100:0:0:1::", "100:0:0:1:ffff:ffff:ffff:ffff"}, nil},
		{"2001::/23 IETF", false, []string{"2001::", "2001:2::1", "2001:1ff:ffff:" + ones}, []string{"2000:ffff:ffff:" + ones, "2001:200::"}},
		{"2001:db8::/32 documentation", false, []string{"2001:db8::", "2001:db8:ffff:" + ones}, []string{"2001:db7:ffff:" + ones, "2001:db9::"}},
		{"2002::/16 6to4", false, []string{"2002::", "2002:ffff:ffff:" + ones}, []string{"2001:ffff:ffff:" + ones, "2003::"}},
		{"2620:4f:8000::/48 AS112", false, []string{"2620:4f:8000::", "2620:4f:8000:" + ones}, []string{"2620:4f:7fff:" + ones, "2620:4f:8001::"}},
		{"3fff::/20 documentation", false, []string{"3fff::", "3fff:fff:ffff:" + ones}, []string{"3ffe:ffff:ffff:" + ones, "3fff:1000::"}},
		{"5f00::/16 SRv6", false, []string{"5f00::", "5f00:ffff:ffff:" + ones}, nil},
		{"fec0::/10 site-local", false, []string{"fec0::", "feff:ffff:ffff:" + ones}, nil},
		{"ff00::/8 multicast", false, []string{"ff00::", "ff02::1", "ffff:ffff:ffff:" + ones}, nil},
	} {
		for _, s := range r.inside {
			a := netip.MustParseAddr(s)
			if DeliverableAddress(a, false) {
				t.Errorf("%s: %s is delivered to", r.name, s)
			}
			if DeliverableAddress(a, true) != r.local {
				t.Errorf("%s: %s with local addresses allowed: delivered %v, want %v", r.name, s, !r.local, r.local)
			}
		}
		for _, s := range r.outside {
			if a := netip.MustParseAddr(s); !DeliverableAddress(a, false) || !DeliverableAddress(a, true) {
				t.Errorf("%s: %s, just outside, is refused", r.name, s)
			}
		}
	}
}

func TestAnAddressIsJudgedAsWhatItReaches(t *testing.T) {
	for s, want := range map[string][2]bool{ // delivered to: without, with local addresses allowed
		"8.8.8.8":              {true, true},
		"2606:4700:4700::1111": {true, true},
		"::ffff:8.8.8.8":       {true, true},   // IPv4-mapped: the IPv4 address
		"::ffff:127.0.0.1":     {false, true},  // likewise
		"::ffff:100.64.0.1":    {false, false}, // likewise
		"2000::":               {true, true},   // the first global unicast address
		"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff": {false, false}, // outside 2000::/3: not allocated for global unicast
		"4000::": {false, false},
	} {
		a := netip.MustParseAddr(s)
		if got := [2]bool{DeliverableAddress(a, false), DeliverableAddress(a, true)}; got != want {
			t.Errorf("%s: delivered %v, want %v", s, got, want)
		}
	}
	if DeliverableAddress(netip.Addr{}, true) {
		t.Error("the zero address is delivered to")
	}
}
