package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// writeCert makes a self-signed certificate for 127.0.0.1 named cn and
// writes it and its key as PEM files in dir; it returns the files and the
// certificate.
func writeCert(t *testing.T, dir, cn string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:     []string{"localhost"},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ = x509.ParseCertificate(der)
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile, cert
}

// TestServeTLS serves HTTPS with --tls-cert and --tls-key: the site
// answers over TLS with Strict-Transport-Security, and --http-addr
// redirects plain HTTP to it.
func TestServeTLS(t *testing.T) {
	certFile, keyFile, cert := writeCert(t, t.TempDir(), "stax test")
	addr, out := serveInProcess(t, serveConfig{addr: "127.0.0.1:0", tls: tlsFlags{cert: certFile, key: keyFile, httpAddr: "127.0.0.1:0"}})
	if !strings.Contains(out.String(), "stax serving on https://127.0.0.1:") {
		t.Errorf("serve printed %q; want an https address", out.String())
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	res, err := client.Get("https://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("GET https://%s/healthz: %v", addr, err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("GET /healthz over TLS: %d, Strict-Transport-Security %q; want 200 with one", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
	}
	if res, err := http.Get("http://" + addr + "/healthz"); err == nil {
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Errorf("plain HTTP on the TLS address was served")
		}
	}

	m := regexp.MustCompile(`redirecting (http://[^ ]+)/ to HTTPS`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("serve printed %q; want the redirecting listener", out.String())
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", m[1]+"/games/abc?x=1", nil)
	req.Host = "stax.example.org"
	res, err = noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusPermanentRedirect || loc != "https://stax.example.org/games/abc?x=1" {
		t.Errorf("GET on --http-addr: %d to %q; want 308 to https://stax.example.org/games/abc?x=1", res.StatusCode, loc)
	}
}

// TestCertReload checks that a renewed certificate is served without a
// restart, and that a renewal that cannot be read keeps the old one.
func TestCertReload(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := writeCert(t, dir, "first")
	r := &certReloader{cert: certFile, key: keyFile}
	if err := r.load(); err != nil {
		t.Fatal(err)
	}
	name := func() string {
		c, err := r.get(nil)
		if err != nil {
			t.Fatal(err)
		}
		x, _ := x509.ParseCertificate(c.Certificate[0])
		return x.Subject.CommonName
	}
	if got := name(); got != "first" {
		t.Fatalf("certificate %q; want first", got)
	}
	// Each renewal gets its own modification time, whatever the file
	// system's resolution and however fast the test runs.
	renewed := func(at time.Duration) {
		mod := time.Now().Add(at)
		for _, f := range []string{certFile, keyFile} {
			if err := os.Chtimes(f, mod, mod); err != nil {
				t.Fatal(err)
			}
		}
	}
	writeCert(t, dir, "second")
	renewed(time.Minute)
	if got := name(); got != "second" {
		t.Errorf("after a renewal: certificate %q; want second", got)
	}
	os.WriteFile(certFile, []byte("not a certificate"), 0o644)
	renewed(2 * time.Minute)
	if got := name(); got != "second" {
		t.Errorf("after a broken renewal: certificate %q; want second, kept", got)
	}
}

// TestTLSFlags checks the combinations of the TLS flags.
func TestTLSFlags(t *testing.T) {
	certFile, keyFile, _ := writeCert(t, t.TempDir(), "x")
	for _, tt := range []struct {
		f       tlsFlags
		tls     bool
		wantErr string
	}{
		{tlsFlags{}, false, ""},
		{tlsFlags{cert: certFile, key: keyFile}, true, ""},
		{tlsFlags{cert: certFile}, false, "go together"},
		{tlsFlags{key: keyFile}, false, "go together"},
		{tlsFlags{cert: certFile, key: certFile}, false, "private key"},
		{tlsFlags{cert: "/nonexistent.pem", key: keyFile}, false, "--tls-cert"},
		{tlsFlags{cert: certFile, key: keyFile, acmeHosts: "stax.example.org"}, false, "exclude each other"},
		{tlsFlags{httpAddr: ":80"}, false, "--http-addr"},
		{tlsFlags{acmeHosts: "stax.example.org, www.stax.example.org", acmeCache: t.TempDir()}, true, ""},
		{tlsFlags{acmeHosts: "stax.example.org"}, false, "--acme-cache"},
		{tlsFlags{acmeHosts: "https://stax.example.org", acmeCache: "x"}, false, "public host names"},
		{tlsFlags{acmeHosts: "192.0.2.1", acmeCache: "x"}, false, "public host names"},
	} {
		cfg, redirect, err := tt.f.setup()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%+v: error %v; want one saying %q", tt.f, err, tt.wantErr)
			}
			continue
		}
		if err != nil || (cfg != nil) != tt.tls || (redirect != nil) != tt.tls {
			t.Errorf("%+v: %v, %v, %v; want TLS %v", tt.f, cfg != nil, redirect != nil, err, tt.tls)
		}
	}
	// Automatic certificates are asked only for the names given.
	cfg, _, _ := tlsFlags{acmeHosts: "stax.example.org", acmeCache: t.TempDir()}.setup()
	if _, err := cfg.GetCertificate(&tls.ClientHelloInfo{ServerName: "evil.example.net"}); err == nil {
		t.Errorf("a certificate for a name not in --acme-hosts was not refused")
	}
}
