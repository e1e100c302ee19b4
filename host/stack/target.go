package stack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// ReferenceServer is the name of the bundled PostgREST-compatible server.
const ReferenceServer = "postgrest-mini"

const modulePath = "github.com/pgrst-lab/pgrst-lab"

// targetChoice is the binary the target unit runs, or why there is none.
type targetChoice struct {
	binary    string
	reference bool
	none      string // reason, when binary is ""
}

// chooseTarget picks the target binary: --postgrest PATH, else postgrest on
// PATH, else postgrest-mini next to the lab executable, on PATH, or built
// from the source tree (the working directory's module) into <dir>/bin.
func chooseTarget(ctx context.Context, o Options, dir string, progress func(string, ...any)) (targetChoice, error) {
	if o.NoTarget {
		return targetChoice{none: "not asked for (--no-target)"}, nil
	}
	if o.Postgrest != "" {
		p, err := exec.LookPath(o.Postgrest)
		if err != nil {
			return targetChoice{}, fmt.Errorf("--postgrest %s: %w (give the path of an executable postgrest)", o.Postgrest, err)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return targetChoice{}, fmt.Errorf("--postgrest %s: %w", o.Postgrest, err)
		}
		return targetChoice{binary: abs, reference: filepath.Base(abs) == ReferenceServer}, nil
	}
	if p, err := exec.LookPath("postgrest"); err == nil {
		abs, _ := filepath.Abs(p)
		return targetChoice{binary: abs}, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), ReferenceServer)
		if isExecutable(p) {
			return targetChoice{binary: p, reference: true}, nil
		}
	}
	if p, err := exec.LookPath(ReferenceServer); err == nil {
		abs, _ := filepath.Abs(p)
		return targetChoice{binary: abs, reference: true}, nil
	}
	root := moduleRoot()
	if root == "" {
		return targetChoice{none: "no target available: postgrest is not on PATH, and " + ReferenceServer +
			" is neither next to the lab, on PATH, nor buildable here (install PostgREST or pass --postgrest PATH)"}, nil
	}
	out := filepath.Join(dir, "bin", ReferenceServer)
	progress("building %s from %s", ReferenceServer, root)
	if err := buildReference(ctx, root, out); err != nil {
		return targetChoice{none: "no target available: postgrest is not on PATH and building " + ReferenceServer + " failed: " + err.Error()}, nil
	}
	return targetChoice{binary: out, reference: true}, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// moduleRoot is the directory of the pgrst-lab go.mod at or above the
// working directory, or "" when not in the source tree.
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			first, _, _ := strings.Cut(string(b), "\n")
			if strings.TrimSpace(strings.TrimPrefix(first, "module")) == modulePath {
				return d
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func buildReference(ctx context.Context, root, out string) error {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return errors.New("no go toolchain on PATH")
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, gobin, "build", "-o", out, "./cmd/"+ReferenceServer)
	cmd.Dir = root
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %v: %s", err, lastLines(errb.String(), 2))
	}
	return nil
}

// writeTargetConfig writes <dir>/postgrest.conf. Keys that follow from the
// stack (db-uri, server-host, ports) are always set; the others only when
// missing, so a user's edits survive a new `up`.
func writeTargetConfig(f Facts) error {
	path := f.configPath()
	src, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if len(src) == 0 {
		src = []byte("# PostgREST config of the lab stack in " + f.Dir + " (written by `lab stack up`).\n")
	}
	cf, err := configs.Parse(path, src)
	if err != nil {
		return fmt.Errorf("%w (fix or remove the file)", err)
	}
	always := map[string]configs.Value{
		"db-uri":            configs.String(f.tcpURI("authenticator")),
		"server-host":       configs.String("127.0.0.1"),
		"server-port":       configs.Int(int64(f.Port)),
		"admin-server-port": configs.Int(int64(f.AdminPort)),
	}
	defaults := map[string]configs.Value{
		"db-schemas":   configs.String("public"),
		"db-anon-role": configs.String("web_anon"),
		"log-level":    configs.String("crit"),
		"db-pool":      configs.Int(10),
	}
	for _, k := range []string{"db-uri", "db-schemas", "db-anon-role", "server-host", "server-port", "admin-server-port", "log-level", "db-pool"} {
		v, set := always[k]
		if !set {
			if _, has := cf.Get(k); has {
				continue
			}
			v = defaults[k]
		}
		if err := cf.Set(k, v); err != nil {
			return fmt.Errorf("%s: set %s: %w", path, k, err)
		}
	}
	return writeTargetFile(f, path, cf.Bytes())
}

func (f Facts) tcpURI(role string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s", role, f.PGPort, Database)
}

func (f Facts) unixURI(role string) string {
	return fmt.Sprintf("postgres://%s@/%s?host=%s&port=%d", role, Database, escapeQuery(f.socketDir()), f.PGPort)
}

func (f Facts) url() string      { return "http://127.0.0.1:" + strconv.Itoa(f.Port) }
func (f Facts) adminURL() string { return "http://127.0.0.1:" + strconv.Itoa(f.AdminPort) }

// targetSpec is the unit that runs the target: `BINARY CONFIG`, like postgrest.
func targetSpec(f Facts) systemd.UnitSpec {
	return systemd.UnitSpec{
		Name:         targetUnitName(f.Dir),
		Description:  "pgrst-lab target (" + filepath.Base(f.Binary) + ") for " + f.Dir,
		ExecStart:    []string{f.execPath(), f.configPath()},
		User:         f.unitUser(),
		WorkingDir:   f.Dir,
		LogFile:      filepath.Join(f.logDir(), "target.log"),
		ReloadSignal: "SIGUSR2",
		StopTimeout:  10 * time.Second,
		Sandbox:      targetSandbox(f),
	}
}

// targetSandbox confines the target: no privilege to gain, and, as root,
// a read-only system with its state directory and the lab's store of
// binaries bound in (both may lie under /tmp or a home).
func targetSandbox(f Facts) *systemd.Sandbox {
	sb := &systemd.Sandbox{Namespaces: os.Geteuid() == 0, Writable: []string{f.Dir}}
	if st, err := runas.DefaultStore(); err == nil {
		sb.ReadOnly = append(sb.ReadOnly, st.Dir)
	}
	return sb
}

// waitTarget gates on the admin server's /ready.
func waitTarget(ctx context.Context, ctrl systemd.Controller, f Facts) error {
	probe := systemd.Probe{AdminURL: f.adminURL(), Timeout: 30 * time.Second, Controller: ctrl, Unit: f.TargetUnit}
	if _, err := systemd.WaitReady(ctx, probe); err != nil {
		return fmt.Errorf("target %s did not become ready (log: %s): %w", f.Binary, filepath.Join(f.logDir(), "target.log"), err)
	}
	return notRoot(ctx, ctrl, f.TargetUnit)
}

// notRoot fails when the unit's main process runs as root.
func notRoot(ctx context.Context, ctrl systemd.Controller, unit string) error {
	p, err := ctrl.Properties(ctx, unit)
	if err != nil {
		return fmt.Errorf("status of %s: %w", unit, err)
	}
	return runas.NotRoot(ctx, "target "+unit, p.MainPID)
}
