package configs

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// QueryPGAddr asks the PostgreSQL at uri where it listens (its port and
// first Unix socket directory), for the "tcp" and "unix" db-uri forms of an
// existing server. A uri that connects over a socket gives 127.0.0.1 as the
// TCP host.
func QueryPGAddr(ctx context.Context, uri string) (PGAddr, error) {
	cfg, err := pgx.ParseConfig(uri)
	if err != nil { // pgx hides passwords in its message only as far as it can parse
		return PGAddr{}, fmt.Errorf("connect to PostgreSQL: cannot parse connection string %s", RedactURI(uri))
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return PGAddr{}, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	var port, dirs string
	if err := conn.QueryRow(ctx, "SELECT current_setting('port'), current_setting('unix_socket_directories')").Scan(&port, &dirs); err != nil {
		return PGAddr{}, fmt.Errorf("read port and unix_socket_directories: %w", err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return PGAddr{}, fmt.Errorf("port %q: %w", port, err)
	}
	host := conn.Config().Host
	if strings.HasPrefix(host, "/") {
		host = "127.0.0.1"
	}
	dir, _, _ := strings.Cut(dirs, ",")
	return PGAddr{Host: host, Port: p, SocketDir: strings.TrimSpace(dir)}, nil
}
