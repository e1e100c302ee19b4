package agent

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/configs"
)

// Advertised is the target URL drivers use: advertise_url, or the target
// URL with advertise_host as its host.
func (cfg *Config) Advertised(targetURL string) (string, error) {
	if cfg.AdvertiseURL != "" {
		return cfg.AdvertiseURL, nil
	}
	if cfg.AdvertiseHost == "" {
		return targetURL, nil
	}
	u, err := url.Parse(targetURL)
	if err != nil {
		return "", fmt.Errorf("target URL %q: %w", targetURL, err)
	}
	port := u.Port()
	if port == "" {
		return "", errors.New("advertise_host: the target URL has no port; give advertise_url")
	}
	u.Host = net.JoinHostPort(cfg.AdvertiseHost, port)
	return u.String(), nil
}

// Unreachable is a warning when drivers are told a non-loopback URL while
// the target's config makes it listen on loopback only ("" otherwise).
func (cfg *Config) Unreachable(targetURL, advertise string) string {
	au, err := url.Parse(advertise)
	if err != nil || advertise == targetURL || loopback(au.Hostname()) {
		return ""
	}
	conf := cfg.Target.Config
	if cfg.Stack.Dir != "" {
		conf = filepath.Join(cfg.Stack.Dir, "postgrest.conf")
	}
	src, err := os.ReadFile(conf)
	if err != nil {
		return ""
	}
	f, err := configs.Parse(conf, src)
	if err != nil {
		return ""
	}
	if v, ok := f.Get("server-host"); ok && loopback(v.String()) {
		return fmt.Sprintf("drivers are told %s, but %s has server-host = %q: the target is not reachable from other hosts (set server-host to %q or \"*4\")",
			advertise, conf, v.String(), au.Hostname())
	}
	return ""
}
