package webhook

import "net/netip"

// A delivery goes to a shop's server on the Internet, so its address must
// be a global unicast one. Every range of IANA's IPv4 and IPv6
// Special-Purpose Address Registries is refused, together with multicast
// and what IANA has not allocated for global unicast: a URL must not reach
// a cloud's metadata service, a carrier's or a benchmark network, a
// translator into IPv4 space, or a documentation address that someone
// routes internally. The local kinds (loopback, private, link-local,
// unspecified) may be allowed for a receiver on the same host or network;
// the other special-purpose ranges never are.

// localRanges are the loopback, private, link-local and unspecified
// addresses.
var localRanges = prefixes(
	"0.0.0.0/32",     // unspecified
	"10.0.0.0/8",     // private
	"127.0.0.0/8",    // loopback
	"169.254.0.0/16", // link-local
	"172.16.0.0/12",  // private
	"192.168.0.0/16", // private
	"::/128",         // unspecified
	"::1/128",        // loopback
	"fc00::/7",       // unique local, private
	"fe80::/10",      // link-local
)

// specialRanges are the other special-purpose ranges, refused always.
var specialRanges = prefixes(
	"0.0.0.0/8",         // "this network"
	"100.64.0.0/10",     // shared address space of carriers, clouds' metadata services
	"192.0.0.0/24",      // IETF protocol assignments (DS-Lite, NAT64 discovery, …)
	"192.0.2.0/24",      // documentation (TEST-NET-1)
	"192.31.196.0/24",   // AS112
	"192.52.193.0/24",   // AMT
	"192.88.99.0/24",    // 6to4 relay anycast, deprecated
	"192.175.48.0/24",   // AS112 direct delegation
	"198.18.0.0/15",     // benchmarking
	"198.51.100.0/24",   // documentation (TEST-NET-2)
	"203.0.113.0/24",    // documentation (TEST-NET-3)
	"224.0.0.0/4",       // multicast
	"240.0.0.0/4",       // reserved, and the limited broadcast 255.255.255.255
	"::/96",             // IPv4-compatible, deprecated
	"::ffff:0:0:0/96",   // IPv4-translated
	"64:ff9b::/96",      // IPv4/IPv6 translation (NAT64)
	"64:ff9b:1::/48",    // local-use IPv4/IPv6 translation
	"100::/64",          // discard-only
	"100:0:0:1::/64",    // dummy prefix
	"2001::/23",         // IETF protocol assignments (Teredo, benchmarking, ORCHID, …)
	"2001:db8::/32",     // documentation
	"2002::/16",         // 6to4
	"2620:4f:8000::/48", // AS112 direct delegation
	"3fff::/20",         // documentation
	"5f00::/16",         // segment routing (SRv6) SIDs
	"fec0::/10",         // site-local, deprecated
	"ff00::/8",          // multicast
)

// globalUnicast6 is all IANA has allocated for IPv6 global unicast.
var globalUnicast6 = netip.MustParsePrefix("2000::/3")

// DeliverableAddress tells whether a delivery may connect to addr. allowLocal
// lets loopback, private, link-local and unspecified addresses through (and
// nothing else). An IPv4-mapped IPv6 address is judged as the IPv4 address
// it stands for; a zone is ignored.
func DeliverableAddress(addr netip.Addr, allowLocal bool) bool {
	addr = addr.Unmap().WithZone("")
	switch {
	case !addr.IsValid():
		return false
	case contains(localRanges, addr):
		return allowLocal
	case contains(specialRanges, addr):
		return false
	}
	return addr.Is4() || globalUnicast6.Contains(addr)
}

func contains(ranges []netip.Prefix, addr netip.Addr) bool {
	for _, p := range ranges {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}
