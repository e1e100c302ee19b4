package labtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/internal/pgbin"
)

// Cluster is a running throwaway PostgreSQL cluster, listening on
// 127.0.0.1:Port and on a Unix socket in SocketDir. The superuser is
// "postgres" with trust authentication.
type Cluster struct {
	BinDir    string
	DataDir   string
	SocketDir string
	Port      int

	cmd  *exec.Cmd
	cred *syscall.Credential
}

// DB is one database in a Cluster.
type DB struct {
	*Cluster
	Name string
}

// TCPURI is a URI for the database over TCP as the given role.
func (d DB) TCPURI(role string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", role, d.Port, d.Name)
}

// Conn connects to the database as the superuser over the Unix socket and
// closes the connection when the test ends.
func (d DB) Conn(t testing.TB) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), d.UnixURI("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// UnixURI is a URI for the database over the Unix socket as the given role.
func (d DB) UnixURI(role string) string {
	return fmt.Sprintf("postgres://%s@/%s?host=%s&port=%d", role, d.Name, d.SocketDir, d.Port)
}

var (
	clusterOnce sync.Once
	cluster     *Cluster
	clusterErr  error
	chinookOnce sync.Once
	chinookErr  error
	realOnce    sync.Once
	realErr     error
	dbSeq       int
	dbMu        sync.Mutex
)

// Main runs the tests and then stops the cluster, if one was started.
func Main(m interface{ Run() int }) {
	code := m.Run()
	if cluster != nil {
		cluster.stop()
	}
	os.Exit(code)
}

// BinDir finds PostgreSQL's server programs (see package pgbin).
func BinDir() (string, error) { return pgbin.Find("") }

// Postgres returns the test binary's shared cluster, starting it on first use.
func Postgres(t testing.TB) *Cluster {
	t.Helper()
	clusterOnce.Do(func() { cluster, clusterErr = startCluster() })
	if clusterErr != nil {
		Need(t, "PostgreSQL: %v", clusterErr)
	}
	return cluster
}

// NewDB creates an empty database in the shared cluster and drops it after the test.
func NewDB(t testing.TB) DB {
	t.Helper()
	c := Postgres(t)
	name := nextName("t")
	if err := c.Psql("postgres", "CREATE DATABASE "+name+" ENCODING 'UTF8' TEMPLATE template0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Psql("postgres", "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	return DB{Cluster: c, Name: name}
}

// Chinook returns a fresh copy of the generated Chinook database (package
// internal/fixture, seed fixture.DefaultSeed: the shape, row counts and
// benchmark additions of the real one, with roles web_anon and
// authenticator), as `lab fixture chinook` and the lab's stack load it. It
// needs no files. Dropped after the test.
func Chinook(t testing.TB) DB {
	t.Helper()
	c := Postgres(t)
	chinookOnce.Do(func() {
		admin := DB{Cluster: c, Name: "postgres"}.UnixURI("postgres")
		_, chinookErr = fixture.Chinook(context.Background(), admin, "chinook_tpl", fixture.DefaultSeed)
	})
	if chinookErr != nil {
		t.Fatalf("load the generated Chinook: %v", chinookErr)
	}
	return copyOf(t, c, "chinook_tpl", "chinook")
}

// RealChinook returns a fresh copy of the real Chinook database
// (chinook.sql and bench.sql from ChinookDir), for the few tests that check
// something against the real files, such as that the generator matches
// them. Dropped after the test.
func RealChinook(t testing.TB) DB {
	t.Helper()
	c := Postgres(t)
	dir := ChinookDir()
	realOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(dir, "chinook.sql")); err != nil {
			realErr = fmt.Errorf("real Chinook not found (set LAB_CHINOOK_DIR): %w", err)
			return
		}
		if realErr = c.Psql("postgres", "CREATE DATABASE chinook_real_tpl ENCODING 'UTF8' TEMPLATE template0"); realErr != nil {
			return
		}
		realErr = c.PsqlFiles("chinook_real_tpl", filepath.Join(dir, "chinook.sql"), filepath.Join(dir, "bench.sql"))
	})
	if realErr != nil {
		Need(t, "%v", realErr)
	}
	return copyOf(t, c, "chinook_real_tpl", "chinook_real")
}

// copyOf creates a database from template tpl and drops it after the test.
func copyOf(t testing.TB, c *Cluster, tpl, prefix string) DB {
	t.Helper()
	name := nextName(prefix)
	if err := c.Psql("postgres", "CREATE DATABASE "+name+" TEMPLATE "+tpl); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Psql("postgres", "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	return DB{Cluster: c, Name: name}
}

// ChinookDir is where the real Chinook files are (chinook.sql, bench.sql
// and the benchmark's POST bodies): $LAB_CHINOOK_DIR, else the
// first ../shared/chinook found walking up from the working directory.
func ChinookDir() string {
	if d := os.Getenv("LAB_CHINOOK_DIR"); d != "" {
		return d
	}
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "..", "shared", "chinook")
		if _, err := os.Stat(filepath.Join(p, "chinook.sql")); err == nil {
			return filepath.Clean(p)
		}
		if filepath.Dir(d) == d {
			return filepath.Join(wd, "..", "shared", "chinook")
		}
	}
}

func nextName(prefix string) string {
	dbMu.Lock()
	defer dbMu.Unlock()
	dbSeq++
	return fmt.Sprintf("%s_%d_%d", prefix, os.Getpid(), dbSeq)
}

// Psql runs SQL in a database as the superuser, with ON_ERROR_STOP.
func (c *Cluster) Psql(db, sql string) error {
	return c.psql(db, "-c", sql)
}

// PsqlFiles runs SQL files in a database as the superuser, with ON_ERROR_STOP.
func (c *Cluster) PsqlFiles(db string, files ...string) error {
	var args []string
	for _, f := range files {
		args = append(args, "-f", f)
	}
	return c.psql(db, args...)
}

func (c *Cluster) psql(db string, args ...string) error {
	all := append([]string{"-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", c.SocketDir, "-p", strconv.Itoa(c.Port), "-U", "postgres", "-d", db}, args...)
	cmd := exec.Command(filepath.Join(c.BinDir, "psql"), all...)
	if _, err := os.Stat(cmd.Path); err != nil {
		cmd = exec.Command("psql", all...)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("psql %v: %w: %s", args, err, out)
	}
	return nil
}

func startCluster() (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp("", "labtest-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{BinDir: bin, DataDir: filepath.Join(root, "data"), SocketDir: filepath.Join(root, "sock")}
	if os.Getuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs a 'postgres' system user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	for _, d := range []string{c.DataDir, c.SocketDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	if c.cred != nil {
		for _, d := range []string{root, c.DataDir, c.SocketDir} {
			if err := os.Chown(d, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
				return nil, err
			}
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", c.DataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	for attempt := 0; attempt < 3; attempt++ {
		c.Port, err = freePort()
		if err != nil {
			return nil, err
		}
		if err = c.start(); err == nil {
			return c, nil
		}
	}
	return nil, err
}

func (c *Cluster) start() error {
	var logb bytes.Buffer
	c.cmd = exec.Command(filepath.Join(c.BinDir, "postgres"), "-D", c.DataDir, "-k", c.SocketDir,
		"-h", "127.0.0.1", "-p", strconv.Itoa(c.Port), "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "shared_preload_libraries=pg_stat_statements")
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Setpgid: true, Pdeathsig: syscall.SIGTERM}
	c.cmd.Stdout, c.cmd.Stderr = &logb, &logb
	if err := c.cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if conn, err := net.Dial("unix", filepath.Join(c.SocketDir, fmt.Sprintf(".s.PGSQL.%d", c.Port))); err == nil {
			conn.Close()
			if c.Psql("postgres", "SELECT 1") == nil {
				return nil
			}
		}
		if c.cmd.ProcessState != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
	return fmt.Errorf("postgres did not become ready: %s", logb.String())
}

func (c *Cluster) stop() {
	if c.cmd == nil || c.cmd.Process == nil {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGINT) // fast shutdown
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
	}
	_ = os.RemoveAll(filepath.Dir(c.DataDir))
}
