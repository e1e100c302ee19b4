package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/server"
	"github.com/pgrst-lab/pgrst-lab/configs"
)

// readKeys are the keys options reads (and --dump-config lists).
var readKeys = []string{"admin-server-host", "admin-server-port", "db-anon-role", "db-channel",
	"db-channel-enabled", "db-pool", "db-pool-acquisition-timeout", "db-pool-max-idletime",
	"db-pool-max-lifetime", "db-pre-request", "db-prepared-statements", "db-schemas", "db-tx-end",
	"db-uri", "jwt-cache-max-lifetime", "jwt-secret", "log-level", "server-host", "server-port",
	"server-timing-enabled", "server-unix-socket", "server-unix-socket-mode"}

// options maps PostgREST settings to server options.
func options(s configs.Settings) (server.Options, error) {
	o := server.Defaults()
	var err error
	o.DBURI = s.String("db-uri", "postgresql://")
	o.Schemas = s.List("db-schemas", o.Schemas)
	o.AnonRole = s.String("db-anon-role", "")
	o.PreRequest = s.String("db-pre-request", s.String("pre-request", ""))
	o.Channel = s.String("db-channel", o.Channel)
	o.Host = s.String("server-host", o.Host)
	o.UnixSocket = s.String("server-unix-socket", "")
	o.AdminHost = s.String("admin-server-host", o.Host)
	ints := []struct {
		key string
		dst *int
	}{{"db-pool", &o.Pool}, {"db-max-rows", &o.MaxRows}, {"server-port", &o.Port}, {"admin-server-port", &o.AdminPort}}
	for _, i := range ints {
		if *i.dst, err = s.Int(i.key, *i.dst); err != nil {
			return o, err
		}
	}
	durs := []struct {
		key string
		dst *time.Duration
	}{{"db-pool-acquisition-timeout", &o.AcquireTimeout}, {"db-pool-max-lifetime", &o.PoolMaxLifetime},
		{"db-pool-max-idletime", &o.PoolMaxIdle}}
	for _, d := range durs {
		n, err := s.Int(d.key, int(d.dst.Seconds()))
		if err != nil {
			return o, err
		}
		*d.dst = time.Duration(n) * time.Second
	}
	if o.PreparedStatements, err = s.Bool("db-prepared-statements", true); err != nil {
		return o, err
	}
	if o.ChannelEnabled, err = s.Bool("db-channel-enabled", true); err != nil {
		return o, err
	}
	if o.ServerTiming, err = s.Bool("server-timing-enabled", false); err != nil {
		return o, err
	}
	switch o.TxEnd = s.String("db-tx-end", server.TxCommit); o.TxEnd {
	case server.TxCommit, server.TxCommitAllowOverride, server.TxRollback, server.TxRollbackAllowOverride:
	default:
		return o, fmt.Errorf("config key db-tx-end = %q: allowed values are commit, commit-allow-override, rollback, rollback-allow-override", o.TxEnd)
	}
	// jwt-cache-max-lifetime is accepted and checked; postgrest-mini has
	// no JWT cache (it verifies every token).
	if _, err = s.Int("jwt-cache-max-lifetime", 0); err != nil {
		return o, err
	}
	if o.JWTSecret = s.String("jwt-secret", ""); o.JWTSecret != "" && len(o.JWTSecret) < 32 {
		return o, fmt.Errorf("config key jwt-secret: the JWT secret must be at least 32 characters long")
	}
	if o.LogLevel, err = server.ParseLogLevel(s.String("log-level", "error")); err != nil {
		return o, err
	}
	if m := s.String("server-unix-socket-mode", "660"); m != "" {
		mode, err := strconv.ParseUint(strings.TrimSpace(m), 8, 32)
		if err != nil || mode > 0o777 {
			return o, fmt.Errorf("config key server-unix-socket-mode = %q: expecting an octal mode like 660", m)
		}
		o.UnixSocketMode = fileMode(mode)
	}
	if o.Pool < 1 {
		return o, fmt.Errorf("config key db-pool = %d: must be at least 1", o.Pool)
	}
	return o, nil
}
