package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
	"github.com/valyala/fasthttp"
)

// Server is a running postgrest-mini.
type Server struct {
	opts       Options
	pool       *pool
	cache      atomic.Pointer[schema.Cache]
	reload     chan struct{}
	http       *fasthttp.Server
	admin      *fasthttp.Server
	ln, adminL net.Listener
	live       atomic.Bool
	dbDown     atomic.Bool // the last database contact failed
	loads      atomic.Int64
	searchPath string
	claims     string
	preRequest string   // SELECT of db-pre-request's function, "" without one
	inject     *cpuWork // nil unless Options.InjectCPU
}

// New validates the options and prepares the pool (which connects lazily).
func New(o Options) (*Server, error) {
	o.fill()
	p, err := newPool(&o)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: o, pool: p, reload: make(chan struct{}, 1), inject: newCPUWork(o.InjectCPU)}
	quoted := make([]string, len(o.Schemas))
	for i, sc := range o.Schemas {
		quoted[i] = pgx.Identifier{sc}.Sanitize()
	}
	s.searchPath = strings.Join(quoted, ", ")
	s.claims = `{"role":` + jsonString(o.AnonRole) + `}`
	if s.preRequest, err = preRequestSQL(o.PreRequest); err != nil {
		return nil, err
	}
	s.http = &fasthttp.Server{
		Handler:               s.handle,
		Name:                  "postgrest-mini",
		MaxRequestBodySize:    o.MaxBodySize,
		ReadBufferSize:        32 << 10, // request line + headers: long in.(...) lists fit
		NoDefaultServerHeader: true,
		ReadTimeout:           60 * time.Second,
		IdleTimeout:           90 * time.Second,
		Logger:                discardLogger{},
		ErrorHandler:          s.protocolError,
	}
	s.admin = &fasthttp.Server{Handler: s.handleAdmin, Name: "postgrest-mini-admin", NoDefaultServerHeader: true, Logger: discardLogger{}}
	return s, nil
}

type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}

// Listen binds the API (TCP or Unix socket) and admin sockets.
func (s *Server) Listen() error {
	var err error
	if s.opts.UnixSocket != "" {
		_ = os.Remove(s.opts.UnixSocket)
		if s.ln, err = net.Listen("unix", s.opts.UnixSocket); err != nil {
			return fmt.Errorf("server-unix-socket %s: %w", s.opts.UnixSocket, err)
		}
		if err = os.Chmod(s.opts.UnixSocket, s.opts.UnixSocketMode); err != nil {
			return fmt.Errorf("server-unix-socket-mode: %w", err)
		}
	} else {
		addr := net.JoinHostPort(listenHost(s.opts.Host), strconv.Itoa(s.opts.Port))
		if s.ln, err = net.Listen("tcp", addr); err != nil {
			return fmt.Errorf("server-host/server-port %s: %w", addr, err)
		}
	}
	if s.opts.AdminPort >= 0 {
		addr := net.JoinHostPort(listenHost(s.opts.AdminHost), strconv.Itoa(s.opts.AdminPort))
		if s.adminL, err = net.Listen("tcp", addr); err != nil {
			s.ln.Close()
			return fmt.Errorf("admin-server-port %s: %w", addr, err)
		}
	}
	return nil
}

// Addr is the API listener's address (after Listen).
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// AdminAddr is the admin listener's address, nil when off.
func (s *Server) AdminAddr() net.Addr {
	if s.adminL == nil {
		return nil
	}
	return s.adminL.Addr()
}

// Serve answers requests until ctx is done, then shuts down gracefully:
// in-flight requests finish (up to 10 s), then the pool closes.
func (s *Server) Serve(ctx context.Context) error {
	if s.ln == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	bg, stop := context.WithCancel(context.Background())
	defer stop()
	go s.schemaLoop(bg)
	if s.opts.ChannelEnabled {
		go s.listenLoop(bg)
	}
	s.ReloadSchema()
	errc := make(chan error, 2)
	go func() { errc <- s.http.Serve(s.ln) }()
	if s.adminL != nil {
		go func() { errc <- s.admin.Serve(s.adminL) }()
	}
	s.live.Store(true)
	s.logf(LogWarn, "Listening on %s", s.ln.Addr())
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	s.live.Store(false)
	if s.opts.OnStopping != nil {
		s.opts.OnStopping()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = s.http.ShutdownWithContext(sctx)
	if s.adminL != nil {
		_ = s.admin.ShutdownWithContext(sctx)
	}
	stop()
	s.pool.Close()
	if s.opts.UnixSocket != "" {
		_ = os.Remove(s.opts.UnixSocket)
	}
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// ReloadSchema asks for a schema cache reload (SIGUSR1, NOTIFY).
func (s *Server) ReloadSchema() {
	select {
	case s.reload <- struct{}{}:
	default: // one already pending
	}
}

// Ready reports whether the schema cache is loaded and the last contact
// with the database succeeded.
func (s *Server) Ready() bool { return s.cache.Load() != nil && !s.dbDown.Load() }

// dbState records the outcome of a database contact.
func (s *Server) dbState(up bool) {
	if s.dbDown.Load() == up {
		s.dbDown.Store(!up)
	}
}

func (s *Server) logf(level LogLevel, format string, args ...any) {
	if s.opts.LogLevel < level {
		return
	}
	fmt.Fprintf(s.opts.ErrorLog, time.Now().Format("02/Jan/2006:15:04:05 -0700")+": "+format+"\n", args...)
}
