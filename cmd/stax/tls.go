package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/acme/autocert"
)

// tlsFlags are the settings of stax serve's own TLS.
type tlsFlags struct {
	cert, key string // a certificate and its key, PEM files
	acmeHosts string // public names to get certificates for automatically
	acmeCache string // where the automatic certificates are kept
	acmeEmail string // the address the certificate authority may write to
	httpAddr  string // a plain HTTP listener that redirects to HTTPS (and answers ACME's challenges)
}

// on reports whether the server serves TLS.
func (f tlsFlags) on() bool { return f.cert != "" || f.acmeHosts != "" }

// hosts returns the names of --acme-hosts.
func (f tlsFlags) hosts() []string {
	var out []string
	for _, h := range strings.Split(f.acmeHosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// setup returns the TLS configuration of the site's listener and the
// handler of --http-addr, or nil, nil when the server serves plain HTTP.
func (f tlsFlags) setup() (*tls.Config, http.Handler, error) {
	switch {
	case (f.cert == "") != (f.key == ""):
		return nil, nil, &usageError{"--tls-cert and --tls-key go together: a certificate and its private key, PEM files"}
	case f.cert != "" && f.acmeHosts != "":
		return nil, nil, &usageError{"--tls-cert and --acme-hosts exclude each other: give a certificate, or names to get one for"}
	case !f.on() && f.httpAddr != "":
		return nil, nil, &usageError{"--http-addr redirects to HTTPS: give --tls-cert and --tls-key, or --acme-hosts"}
	case !f.on():
		return nil, nil, nil
	}
	if f.cert != "" {
		r := &certReloader{cert: f.cert, key: f.key, every: time.Minute}
		if err := r.load(); err != nil {
			return nil, nil, err
		}
		cfg := &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: r.get, NextProtos: []string{"http/1.1"}}
		return cfg, http.HandlerFunc(redirectHTTPS), nil
	}
	hosts := f.hosts()
	for _, h := range hosts {
		if strings.ContainsAny(h, "/:@ *") || net.ParseIP(h) != nil {
			return nil, nil, &usageError{fmt.Sprintf("--acme-hosts %q: want public host names separated by commas, e.g. stax.example.org", f.acmeHosts)}
		}
	}
	if f.acmeCache == "" {
		return nil, nil, &usageError{"--acme-hosts needs --acme-cache, a directory to keep the certificates in across restarts"}
	}
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		HostPolicy: autocert.HostWhitelist(hosts...),
		Cache:      autocert.DirCache(f.acmeCache),
		Email:      f.acmeEmail,
	}
	cfg := m.TLSConfig()
	cfg.MinVersion = tls.VersionTLS12
	// Websockets need HTTP/1.1; the ACME challenge its own protocol.
	cfg.NextProtos = []string{"http/1.1", "acme-tls/1"}
	return cfg, m.HTTPHandler(http.HandlerFunc(redirectHTTPS)), nil
}

// redirectHTTPS sends a plain HTTP request to the same address over
// HTTPS, on the default port.
func redirectHTTPS(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if host == "" || r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "this server answers over HTTPS", http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
}

// certReloader serves a certificate from its files, reading them again
// when they change (a renewal), at most once every every.
type certReloader struct {
	cert, key string
	every     time.Duration

	mu      sync.Mutex // guards the fields below
	current *tls.Certificate
	mod     time.Time // the files' latest modification when read
	checked time.Time
}

// modified returns the latest modification time of the two files.
func (r *certReloader) modified() (time.Time, error) {
	var latest time.Time
	for _, f := range []string{r.cert, r.key} {
		fi, err := os.Stat(f)
		if err != nil {
			return time.Time{}, err
		}
		if fi.ModTime().After(latest) {
			latest = fi.ModTime()
		}
	}
	return latest, nil
}

// load reads the certificate and its key.
func (r *certReloader) load() error {
	mod, err := r.modified()
	if err != nil {
		return fmt.Errorf("--tls-cert and --tls-key: %w", err)
	}
	c, err := tls.LoadX509KeyPair(r.cert, r.key)
	if err != nil {
		return fmt.Errorf("--tls-cert %s and --tls-key %s: want a PEM certificate (chain) and its private key: %w", r.cert, r.key, err)
	}
	r.mu.Lock()
	r.current, r.mod, r.checked = &c, mod, time.Now()
	r.mu.Unlock()
	return nil
}

// get is the listener's GetCertificate: the current certificate, read
// again when its files changed. A renewal that cannot be read keeps the
// certificate in use.
func (r *certReloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	due := time.Since(r.checked) >= r.every
	if due {
		r.checked = time.Now()
	}
	r.mu.Unlock()
	if due {
		if mod, err := r.modified(); err == nil && !mod.Equal(r.mod) {
			r.load()
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.current, nil
}
