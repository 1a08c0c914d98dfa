package server

import (
	"net"
	"strings"
)

// contentSecurityPolicy lets the page load its own scripts, styles, images
// and websocket and nothing else, and forbids framing it (so that no other
// site can overlay it and have a hidden button clicked). 'wasm-unsafe-eval'
// lets the engine's worker compile the site's own WebAssembly
// (server/offline), and nothing else: it allows no eval of JavaScript.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// securityHeaders are set on every answer.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", contentSecurityPolicy},
	{"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
	{"Cross-Origin-Opener-Policy", "same-origin"},
}

// hostOnly returns the host name of a Host header, without its port or
// brackets, in lower case and without a trailing dot.
func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// isLoopbackHost reports whether a host name can only mean this machine:
// localhost, a name under .localhost, or a loopback address.
func isLoopbackHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
