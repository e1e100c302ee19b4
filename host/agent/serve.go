package agent

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// DefaultListen is where the agent listens unless told otherwise.
const DefaultListen = "127.0.0.1:7171"

// TLSFiles are the agent's certificate and key, and optionally the CA
// whose client certificates it requires.
type TLSFiles struct {
	Cert     string `toml:"cert"`
	Key      string `toml:"key"`
	ClientCA string `toml:"client_ca"`
}

// Enabled reports whether TLS is configured.
func (f TLSFiles) Enabled() bool { return f.Cert != "" || f.Key != "" }

// ServerTLS loads the server's TLS config (TLS 1.2+; client certificates
// required and verified when ClientCA is set).
func ServerTLS(f TLSFiles) (*tls.Config, error) {
	if f.Cert == "" || f.Key == "" {
		return nil, errors.New("tls: both cert and key are needed")
	}
	if err := privateFile("tls key", f.Key); err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		return nil, fmt.Errorf("tls: load %s and %s: %w", f.Cert, f.Key, err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	if f.ClientCA != "" {
		pool, err := loadPool(f.ClientCA)
		if err != nil {
			return nil, err
		}
		cfg.ClientCAs, cfg.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// ClientTLS is the driver's TLS config: the CA that signed the agent's
// certificate ("" = system roots) and an optional client certificate.
func ClientTLS(caFile, certFile, keyFile string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pool, err := loadPool(caFile)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	if certFile != "" || keyFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

func loadPool(file string) (*x509.CertPool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("CA file %s: no PEM certificate in it", file)
	}
	return pool, nil
}

// Listen opens the agent's listener. A non-loopback address without TLS
// is refused unless plaintext is allowed explicitly: the token would cross
// the network in clear.
func Listen(ctx context.Context, addr string, tlsOn, allowPlaintext bool) (net.Listener, error) {
	addr, err := listenAddr(addr, tlsOn, allowPlaintext)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// listenAddr is the address Listen opens: addr, or DefaultListen when it is
// empty, refused when it is not loopback and neither TLS nor plaintext is
// allowed.
func listenAddr(addr string, tlsOn, allowPlaintext bool) (string, error) {
	if addr == "" {
		addr = DefaultListen
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w (want HOST:PORT, e.g. %s)", addr, err, DefaultListen)
	}
	if !tlsOn && !allowPlaintext && !loopback(host) {
		return "", fmt.Errorf("listen address %s is not loopback and no TLS is configured: give a certificate (--cert/--key) or --allow-plaintext", addr)
	}
	return addr, nil
}

// loopback reports whether host names this machine's loopback interface
// (localhost, 127.0.0.0/8, ::1): the one place a bearer token may go
// without TLS.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves h on ln (over TLS when cfg is set) until ctx is done; then
// it stops taking requests and ends a live lease, restoring the original
// configuration if a variant is in place.
func Serve(ctx context.Context, ln net.Listener, h *Handler, cfg *tls.Config) error {
	srv := &http.Server{Handler: h, TLSConfig: cfg, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: h.opt.ApplyTimeout + time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	ln = limitListener(ln, h.opt.MaxConnections)
	errc := make(chan error, 1)
	go func() {
		if cfg != nil {
			errc <- srv.ServeTLS(ln, "", "")
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), h.opt.ApplyTimeout)
	defer cancel()
	err := h.Shutdown(sctx)
	hctx, hcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer hcancel()
	_ = srv.Shutdown(hctx)
	return err
}
