package httpx

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies parses a comma-separated list of addresses and
// networks (CIDR) of the reverse proxies in front of the server, e.g.
// "127.0.0.1,10.0.0.0/8,fd00::/8", for Config.TrustedProxies.
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: want an address or a network such as 10.0.0.0/8", f)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want an address or a network such as 10.0.0.0/8", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Trusted reports whether a is the address of a trusted proxy.
func Trusted(proxies []netip.Prefix, a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// PeerAddr returns the address of a connection's other end, without its
// port.
func PeerAddr(remote string) (netip.Addr, bool) {
	host := remote
	if h, _, err := net.SplitHostPort(remote); err == nil {
		host = h
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// Proxies lists the reverse proxies in front of the server, whose
// X-Forwarded-For header is believed.
type Proxies []netip.Prefix

// ClientIP returns the address of a request's client, without its port:
// the connection's address, or, when that is one of the trusted proxies p, the address the proxies name in
// X-Forwarded-For. That header is read from the right, the hop nearest to
// the server first, and the first address that is not a trusted proxy is
// the client: addresses further left were written by the client itself
// and could be anything. A header that names only proxies, or that cannot
// be read, leaves the connection's address.
func (p Proxies) ClientIP(r *http.Request) string {
	peer, ok := PeerAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if len(p) == 0 || !Trusted(p, peer) {
		return peer.String()
	}
	values := r.Header.Values("X-Forwarded-For")
	for i := len(values) - 1; i >= 0; i-- {
		hops := strings.Split(values[i], ",")
		for j := len(hops) - 1; j >= 0; j-- {
			hop := strings.TrimSpace(hops[j])
			a, err := netip.ParseAddr(hop)
			if err != nil {
				// Some proxies write host:port or [v6]:port.
				if b, ok := PeerAddr(hop); ok {
					a, err = b, nil
				}
			}
			if err != nil {
				return peer.String() // a hop that cannot be read: stop trusting the rest
			}
			a = a.Unmap()
			if !Trusted(p, a) {
				return a.String()
			}
		}
	}
	return peer.String()
}
