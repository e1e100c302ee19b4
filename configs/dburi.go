package configs

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
)

// PGAddr is where the lab's PostgreSQL listens: a TCP host and port and a
// Unix socket directory (socket file SocketDir/.s.PGSQL.Port).
type PGAddr struct {
	Host      string
	Port      int
	SocketDir string
}

// Transports a db-uri can use.
const (
	TransportTCP  = "tcp"
	TransportUnix = "unix"
)

// Transport tells whether a connection string (URI or key=value form)
// connects over "tcp" or a "unix" socket. An empty host means the default
// Unix socket, as in libpq.
func Transport(uri string) (string, error) {
	c, err := parseConnString(uri)
	if err != nil {
		return "", err
	}
	return c.transport(), nil
}

// DeriveDBURI rewrites base to connect over transport ("tcp" or "unix") to
// the PostgreSQL at pg, keeping everything else (user, password, database,
// other parameters, and for URIs the raw bytes of those parts) unchanged.
// A base that already uses the transport is returned unchanged.
//
// Refused, with an error saying why: an unknown transport; an "@file"
// base (resolve it first); several hosts; a Unix socket for a host that is
// not this machine (neither loopback, localhost nor pg.Host); a base port
// other than pg.Port; an unknown socket directory.
func DeriveDBURI(base, transport string, pg PGAddr) (string, error) {
	if transport != TransportTCP && transport != TransportUnix {
		return "", fmt.Errorf("db-uri transport %q: want %q or %q", transport, TransportTCP, TransportUnix)
	}
	c, err := parseConnString(base)
	if err != nil {
		return "", err
	}
	if c.transport() == transport {
		return base, nil
	}
	port := pg.Port
	if c.port != "" {
		p, err := strconv.Atoi(c.port)
		if err != nil {
			return "", fmt.Errorf("db-uri port is not a number")
		}
		if pg.Port != 0 && p != pg.Port {
			return "", fmt.Errorf("db-uri connects to port %d but the PostgreSQL listens on %d: refusing to switch to %s", p, pg.Port, transport)
		}
		port = p
	}
	if port == 0 {
		port = 5432
	}
	switch transport {
	case TransportUnix:
		if !isLocalHost(c.host, pg.Host) || (c.hostaddr != "" && !isLocalHost(c.hostaddr, pg.Host)) {
			h := c.host
			if c.hostaddr != "" {
				h = c.hostaddr
			}
			return "", fmt.Errorf("db-uri host %q is not this machine: a Unix socket only reaches a local PostgreSQL", h)
		}
		if pg.SocketDir == "" {
			return "", fmt.Errorf("cannot switch db-uri to a Unix socket: the PostgreSQL's socket directory is unknown")
		}
		if !strings.HasPrefix(pg.SocketDir, "/") {
			return "", fmt.Errorf("socket directory %q is not an absolute path", pg.SocketDir)
		}
		return c.render(pg.SocketDir, port), nil
	default:
		host := pg.Host
		if host == "" {
			host = "127.0.0.1"
		}
		if strings.HasPrefix(host, "/") {
			return "", fmt.Errorf("PostgreSQL TCP host %q is a path", host)
		}
		return c.render(host, port), nil
	}
}

// RedactURI returns a db-uri or connection string fit to show: passwords
// replaced, and whatever cannot be read hidden whole (fail closed; see
// connstr.Redact). The lab's "tcp" and "unix" are kept.
func RedactURI(s string) string {
	if s == TransportTCP || s == TransportUnix {
		return s
	}
	return connstr.Redact(s)
}

// isLocalHost reports whether a TCP host is this machine.
func isLocalHost(h, pgHost string) bool {
	if h == "" || strings.HasPrefix(h, "/") || h == "localhost" || (pgHost != "" && h == pgHost) {
		return true
	}
	if strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// connString is a parsed libpq connection string.
type connString struct {
	uri bool
	// URI form: raw pieces, kept byte for byte.
	scheme, userinfo, path string
	hostlist               string // raw authority host[:port]
	query                  []param
	// key=value form
	kv []param

	host, hostaddr, port string // effective, decoded
}

type param struct{ key, val, raw string }

// applyParams takes host, hostaddr and port from a URI's query or the
// key=value pairs (a later pair wins, as in libpq).
func (c *connString) applyParams(ps []param) error {
	for _, p := range ps {
		switch p.key {
		case "host":
			if strings.Contains(p.val, ",") {
				return fmt.Errorf("db-uri lists several hosts: not supported")
			}
			c.host = p.val
		case "hostaddr":
			c.hostaddr = p.val
		case "port":
			c.port = p.val
		}
	}
	return nil
}

func parseConnString(s string) (*connString, error) {
	switch {
	case strings.HasPrefix(s, "@"):
		return nil, fmt.Errorf("db-uri %s names a file: read it first", RedactURI(s))
	case strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://"):
		return parseURI(s)
	case strings.Contains(s, "="):
		return parseKV(s)
	case s == "":
		return parseURI("postgresql://")
	}
	return nil, fmt.Errorf("db-uri %s is neither a postgres:// URI nor key=value pairs", RedactURI(s))
}

func (c *connString) transport() string {
	if c.hostaddr != "" {
		return TransportTCP
	}
	if c.host == "" || strings.HasPrefix(c.host, "/") || strings.HasPrefix(c.host, "@") {
		return TransportUnix
	}
	return TransportTCP
}

func parseURI(s string) (*connString, error) {
	c := &connString{uri: true}
	scheme, rest, _ := strings.Cut(s, "://")
	c.scheme = scheme
	// The userinfo ends at an '@' before the first '/' (libpq looks no
	// further; a '?' in a password is the password's): the last one, so a
	// raw '@' in a password stays in it.
	userEnd := strings.IndexByte(rest, '/')
	if userEnd < 0 {
		userEnd = len(rest)
	}
	if i := strings.LastIndexByte(rest[:userEnd], '@'); i >= 0 {
		c.userinfo = rest[:i+1]
		rest = rest[i+1:]
	}
	authEnd := strings.IndexAny(rest, "/?")
	if authEnd < 0 {
		authEnd = len(rest)
	}
	auth := rest[:authEnd]
	rest = rest[authEnd:]
	c.hostlist = auth
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		c.path = rest[:q]
		for _, kv := range strings.Split(rest[q+1:], "&") {
			if kv == "" {
				continue
			}
			k, v, _ := strings.Cut(kv, "=")
			dk, err1 := url.QueryUnescape(k)
			dv, err2 := url.PathUnescape(v)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("db-uri query parameter %d is badly percent-encoded", len(c.query)+1)
			}
			c.query = append(c.query, param{key: dk, val: dv, raw: kv})
		}
	} else {
		c.path = rest
	}
	if strings.Contains(auth, ",") {
		return nil, fmt.Errorf("db-uri lists several hosts: not supported")
	}
	host, port, err := splitHostPort(auth)
	if err != nil {
		return nil, err
	}
	c.host, c.port = host, port
	if err := c.applyParams(c.query); err != nil {
		return nil, err
	}
	return c, nil
}

// splitHostPort splits a URI authority's host part: "h", "h:5432",
// "[::1]:5432", "%2Frun%2Fpostgresql".
func splitHostPort(a string) (host, port string, err error) {
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return "", "", fmt.Errorf("db-uri host: unterminated [IPv6] address")
		}
		host, rest := a[1:end], a[end+1:]
		if rest != "" {
			if !strings.HasPrefix(rest, ":") {
				return "", "", fmt.Errorf("db-uri host: junk after ]")
			}
			port = rest[1:]
		}
		return host, port, nil
	}
	if i := strings.LastIndexByte(a, ':'); i >= 0 {
		a, port = a[:i], a[i+1:]
	}
	host, err = url.PathUnescape(a)
	if err != nil {
		return "", "", fmt.Errorf("db-uri host is badly percent-encoded")
	}
	return host, port, nil
}

// render writes the connection string with a new host (a TCP host or a
// socket directory) and port; hostaddr is dropped.
func (c *connString) render(host string, port int) string {
	if !c.uri {
		return c.renderKV(host, port)
	}
	var b strings.Builder
	b.WriteString(c.scheme + "://" + c.userinfo)
	tcp := !strings.HasPrefix(host, "/")
	if tcp {
		if strings.Contains(host, ":") {
			b.WriteString("[" + host + "]")
		} else {
			b.WriteString(host)
		}
		b.WriteString(":" + strconv.Itoa(port))
	}
	b.WriteString(c.path)
	var q []string
	for _, p := range c.query {
		if p.key == "host" || p.key == "hostaddr" || p.key == "port" {
			continue
		}
		q = append(q, p.raw)
	}
	if !tcp {
		q = append(q, "host="+queryEscape(host), "port="+strconv.Itoa(port))
	}
	if len(q) > 0 {
		b.WriteString("?" + strings.Join(q, "&"))
	}
	return b.String()
}

// queryEscape percent-encodes what would break a query value, keeping a
// socket path readable.
func queryEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("%&=#+?", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
