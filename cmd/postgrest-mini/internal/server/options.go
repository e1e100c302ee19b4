package server

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// LogLevel is PostgREST's log-level.
type LogLevel int

// Levels, from quietest.
const (
	LogCrit LogLevel = iota
	LogError
	LogWarn
	LogInfo
)

// ParseLogLevel reads crit, error, warn or info.
func ParseLogLevel(s string) (LogLevel, error) {
	switch strings.ToLower(s) {
	case "crit":
		return LogCrit, nil
	case "error", "":
		return LogError, nil
	case "warn":
		return LogWarn, nil
	case "info", "debug":
		return LogInfo, nil
	}
	return 0, fmt.Errorf("log-level %q: allowed values are crit, error, warn, info", s)
}

// Options configure a Server. Zero values mean PostgREST's defaults where
// Defaults documents one.
type Options struct {
	DBURI              string
	Schemas            []string // db-schemas; the first is the default
	AnonRole           string   // db-anon-role; "" disables anonymous access
	Pool               int      // db-pool
	MaxRows            int      // db-max-rows: at most this many rows read from a table (0: no bound)
	AcquireTimeout     time.Duration
	PreparedStatements bool
	PoolMaxLifetime    time.Duration
	PoolMaxIdle        time.Duration
	Channel            string // db-channel
	ChannelEnabled     bool   // db-channel-enabled
	TxEnd              string // db-tx-end: commit (default), commit-allow-override, rollback, rollback-allow-override
	JWTSecret          string // jwt-secret (HS256); "" refuses tokens with 500 PGRST300
	ServerTiming       bool   // server-timing-enabled: a Server-Timing header per answered request
	PreRequest         string // db-pre-request: a function ("name" or "schema.name") called before every request

	LogLevel       LogLevel
	Host           string // server-host (PostgREST syntax: !4, *4, !6, *6, *, or an address)
	Port           int    // server-port; 0 picks a free port
	UnixSocket     string // server-unix-socket: serve HTTP there instead of TCP
	UnixSocketMode os.FileMode
	AdminHost      string
	AdminPort      int // admin-server-port; -1 = off, 0 = a free port

	OnReady     func() // called once, when the first schema cache load succeeds
	OnStopping  func() // called when graceful shutdown begins
	MaxBodySize int    // bytes; larger requests get 413
	// InjectCPU adds this much CPU work to every API request (lab-only:
	// PGRST_LAB_INJECT_CPU_US, for `lab calibrate`); 0 = none.
	InjectCPU time.Duration
	AccessLog io.Writer // default os.Stdout, written unbuffered
	ErrorLog  io.Writer // default os.Stderr
}

// Defaults returns PostgREST's defaults.
func Defaults() Options {
	return Options{
		Schemas: []string{"public"}, Pool: 10, AcquireTimeout: 10 * time.Second, PreparedStatements: true,
		PoolMaxLifetime: 30 * time.Minute, PoolMaxIdle: 30 * time.Second, Channel: "pgrst", ChannelEnabled: true,
		LogLevel: LogError, Host: "!4", Port: 3000, UnixSocketMode: 0o660, AdminPort: -1,
		MaxBodySize: 16 << 20,
	}
}

func (o *Options) fill() {
	if o.TxEnd == "" {
		o.TxEnd = TxCommit
	}
	if o.AccessLog == nil {
		o.AccessLog = os.Stdout
	}
	if o.ErrorLog == nil {
		o.ErrorLog = os.Stderr
	}
	if len(o.Schemas) == 0 {
		o.Schemas = []string{"public"}
	}
	if o.Pool <= 0 {
		o.Pool = 10
	}
	if o.AcquireTimeout <= 0 {
		o.AcquireTimeout = 10 * time.Second
	}
	if o.Channel == "" {
		o.Channel = "pgrst"
	}
	if o.MaxBodySize <= 0 {
		o.MaxBodySize = 16 << 20
	}
	if o.UnixSocketMode == 0 {
		o.UnixSocketMode = 0o660
	}
	if o.AdminHost == "" {
		o.AdminHost = o.Host
	}
}

// listenHost maps PostgREST's server-host to a Go listen host.
func listenHost(h string) string {
	switch h {
	case "!4", "*4", "":
		return "0.0.0.0"
	case "!6", "*6":
		return "::"
	case "*":
		return ""
	}
	return h
}
