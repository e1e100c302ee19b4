package stack

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// labConf holds the settings every lab cluster runs with; postgresql.conf
// includes it, so ALTER SYSTEM (postgresql.auto.conf) still overrides it.
const labConfName = "lab.conf"

// maxSocketPath is the longest Unix socket path Linux accepts.
const maxSocketPath = 107

func (f Facts) socketPath() string {
	return filepath.Join(f.socketDir(), ".s.PGSQL."+strconv.Itoa(f.PGPort))
}

// initCluster runs initdb once (when pg-data has no PG_VERSION) and writes
// lab.conf with the stack's port and socket directory.
func initCluster(ctx context.Context, f Facts, u pgUser, progress func(string, ...any)) error {
	if n := len(f.socketPath()); n > maxSocketPath {
		return fmt.Errorf("socket path %s is %d bytes, more than Linux allows (%d): choose a shorter --dir", f.socketPath(), n, maxSocketPath)
	}
	if err := u.checkTraversable(f.Dir); err != nil {
		return err
	}
	for _, d := range []string{f.dataDir(), f.socketDir()} {
		if err := u.mkdirOwned(d); err != nil {
			return err
		}
	}
	// The target, as its own user, reaches the socket; pg_hba.conf lets
	// it in as authenticator only.
	if err := os.Chmod(f.socketDir(), 0o711); err != nil {
		return fmt.Errorf("socket directory %s: %w", f.socketDir(), err)
	}
	if _, err := os.Stat(filepath.Join(f.dataDir(), "PG_VERSION")); errors.Is(err, fs.ErrNotExist) {
		progress("initdb %s", f.dataDir())
		cmd := exec.CommandContext(ctx, filepath.Join(f.PGBinDir, "initdb"), "-D", f.dataDir(), "-U", "postgres",
			"--auth=trust", "-E", "UTF8", "--locale=C")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: u.credential()}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("initdb %s: %w: %s", f.dataDir(), err, lastLines(string(out), 3))
		}
		conf := filepath.Join(f.dataDir(), "postgresql.conf")
		if err := u.appendFile(conf, "\n# pgrst-lab: settings of a lab cluster\ninclude '"+labConfName+"'\n"); err != nil {
			return err
		}
	} else if err != nil {
		return fmt.Errorf("cluster %s: %w", f.dataDir(), err)
	}
	if err := writeHBA(f, u); err != nil {
		return err
	}
	if err := writeIdent(f, u); err != nil {
		return err
	}
	return writeLabConf(f, u)
}

// hbaConf trusts only what the lab needs. Over the unix socket, whose
// directory only PostgreSQL's user can change: the authenticator role
// (the target's, which runs as its own unprivileged user) and, by peer
// authentication, the lab's own user and PostgreSQL's as the superuser
// (identMap). Over TCP on loopback: the authenticator role only (the
// target's db-uri "tcp"). Nobody else gets a role: initdb --auth=trust let
// every local user connect as any role, the superuser included.
const hbaConf = `# Written by pgrst-lab (lab stack up); changes are overwritten.
# TYPE  DATABASE  USER           ADDRESS        METHOD
local   all       authenticator                 trust
local   all       all                           peer map=lab
host    all       authenticator  127.0.0.1/32   trust
host    all       authenticator  ::1/128        trust
`

// writeIdent writes pg_ident.conf's map "lab": the lab's user and
// PostgreSQL's own connect as the superuser postgres; every user may be
// the role of its own name (peer authentication's rule without a map).
func writeIdent(f Facts, u pgUser) error {
	self, err := runas.Current()
	if err != nil {
		return err
	}
	pg := self.Name
	if u.name != "" {
		pg = u.name
	}
	lines := []string{"# Written by pgrst-lab (lab stack up); changes are overwritten.",
		"# MAPNAME  SYSTEM-USERNAME  PG-USERNAME",
		"lab  " + identUser(self.Name) + "  postgres"}
	if pg != self.Name {
		lines = append(lines, "lab  "+identUser(pg)+"  postgres")
	}
	lines = append(lines, `lab  /^(.*)$  \1`, "")
	return u.writePrivate(filepath.Join(f.dataDir(), "pg_ident.conf"), strings.Join(lines, "\n"))
}

// identUser quotes a system user name for pg_ident.conf.
func identUser(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// writeHBA replaces pg_hba.conf with hbaConf (the server reads it at start).
func writeHBA(f Facts, u pgUser) error {
	return u.writePrivate(filepath.Join(f.dataDir(), "pg_hba.conf"), hbaConf)
}

// writePrivate replaces path, in the cluster's directory (which u owns and
// may fill with links), with a new file of mode 0600 that belongs to u: the
// text goes to a fresh temporary file (O_EXCL), which is given to u through
// its descriptor and renamed over path. A link at path is replaced, never
// followed.
func (u pgUser) writePrivate(path, text string) error {
	o := atomicfile.Options{Mode: 0o600}
	if u.name != "" {
		o.Owner = &atomicfile.Owner{UID: u.uid, GID: u.gid}
	}
	return atomicfile.Write(path, []byte(text), o)
}

func writeLabConf(f Facts, u pgUser) error {
	conf := strings.Join([]string{
		"# Written by pgrst-lab (lab stack up); changes are overwritten. Use ALTER SYSTEM to tune.",
		"listen_addresses = '127.0.0.1'",
		"port = " + strconv.Itoa(f.PGPort),
		"unix_socket_directories = '" + strings.ReplaceAll(f.socketDir(), "'", "''") + "'",
		"shared_preload_libraries = 'pg_stat_statements'",
		"max_connections = 200",
		"",
	}, "\n")
	return u.writePrivate(filepath.Join(f.dataDir(), labConfName), conf)
}

// appendFile adds text to a file of u's in the cluster's directory: it
// reads only a regular file of u's (never through a link) and replaces it
// as writePrivate does.
func (u pgUser) appendFile(path, text string) error {
	old, err := safefile.ReadFile(path, u.uid)
	if err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return u.writePrivate(path, string(old)+text)
}

// pgSpec is the unit that runs the cluster. SIGINT is PostgreSQL's fast shutdown.
func pgSpec(f Facts, u pgUser) systemd.UnitSpec {
	return systemd.UnitSpec{
		Name:        pgUnitName(f.Dir),
		Description: "pgrst-lab PostgreSQL for " + f.Dir,
		ExecStart:   []string{filepath.Join(f.PGBinDir, "postgres"), "-D", f.dataDir()},
		User:        u.name,
		WorkingDir:  f.dataDir(),
		LogFile:     filepath.Join(f.logDir(), "postgres.log"),
		KillSignal:  "SIGINT",
		StopTimeout: 30 * time.Second,
	}
}

// adminURI connects as the superuser over the Unix socket, to database db.
func (f Facts) adminURI(db string) string {
	return fmt.Sprintf("postgres://postgres@/%s?host=%s&port=%d", db, escapeQuery(f.socketDir()), f.PGPort)
}

func escapeQuery(s string) string {
	return strings.NewReplacer("%", "%25", "&", "%26", "#", "%23", " ", "%20", "+", "%2B").Replace(s)
}

// waitPG waits until the cluster answers a query over its socket.
func waitPG(ctx context.Context, ctrl systemd.Controller, f Facts) error {
	probe := systemd.Probe{UnixSocket: f.socketPath(), Timeout: 60 * time.Second, Controller: ctrl, Unit: f.PGUnit}
	if _, err := systemd.WaitReady(ctx, probe); err != nil {
		return fmt.Errorf("PostgreSQL did not start (log: %s): %w", filepath.Join(f.logDir(), "postgres.log"), err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := pgx.Connect(ctx, f.adminURI("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("PostgreSQL does not accept connections (log: %s): %w", filepath.Join(f.logDir(), "postgres.log"), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// bootstrap makes the roles and the (empty) Database the target serves.
func bootstrap(ctx context.Context, f Facts) error {
	conn, err := pgx.Connect(ctx, f.adminURI("postgres"))
	if err != nil {
		return fmt.Errorf("connect to the lab cluster: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, fixture.RolesSQL); err != nil {
		return fmt.Errorf("create roles web_anon and authenticator: %w", err)
	}
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", Database).Scan(&exists); err != nil {
		return fmt.Errorf("look for database %s: %w", Database, err)
	}
	if !exists {
		if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{Database}.Sanitize()+" ENCODING 'UTF8' TEMPLATE template0"); err != nil {
			return fmt.Errorf("create database %s: %w", Database, err)
		}
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
