package profiler

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Frequency is the sampling rate of perf record, per CPU, in Hz: low
// enough that perf's own work stays small on a 2-core machine, high
// enough for a few thousand samples in a few seconds.
const Frequency = 499

// ackTimeout bounds the wait for perf to acknowledge a control command.
const ackTimeout = 30 * time.Second

// Check reports whether perf can be run, with a clear error when not.
func Check(ctx context.Context) error {
	path, err := exec.LookPath("perf")
	if err != nil {
		return errors.New("profiling needs perf on PATH (Debian: apt-get install linux-perf): " + err.Error())
	}
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("profiling: %s --version: %v: %s", path, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Process is a process to profile and the service it belongs to.
type Process struct {
	PID     int
	Service string // the root frame of its stacks, e.g. "postgrest"
}

// Recorder is a running perf record, events enabled (Start) until Stop.
type Recorder struct {
	cmd      *exec.Cmd
	dir      string
	ctl, ack *os.File
	services map[int]string
	exes     map[string]string // "[base name of an executable]" -> "[<service> executable]"
	exePaths map[string]bool   // the tracked processes' executables, whose symbol tables Fold reads
	stderr   strings.Builder
	done     chan error
	stopped  bool
	// cpu0 and cpu are perf's CPU time at the window's start and its
	// CPU during the window (procfs, 10 ms resolution).
	cpu0, cpu time.Duration
}

// Start runs perf record for the processes (every CPU as root, keeping
// their samples only; see target) and enables its events once perf is
// ready, so the profile begins when Start returns. dir is where perf
// writes its data (a temporary directory under it, removed by Fold or
// Discard).
func Start(ctx context.Context, dir string, procs []Process) (*Recorder, error) {
	if len(procs) == 0 {
		return nil, errors.New("perf record: no process to profile")
	}
	tmp, err := os.MkdirTemp(dir, "perf-")
	if err != nil {
		return nil, fmt.Errorf("perf record: %w", err)
	}
	r := &Recorder{dir: tmp, services: map[int]string{}, exes: map[string]string{}, exePaths: map[string]bool{}, done: make(chan error, 1)}
	if err := r.start(ctx, procs); err != nil {
		r.cleanup()
		return nil, err
	}
	return r, nil
}

func (r *Recorder) start(ctx context.Context, procs []Process) error {
	ctlPath, ackPath := filepath.Join(r.dir, "ctl"), filepath.Join(r.dir, "ack")
	for _, p := range []string{ctlPath, ackPath} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			return fmt.Errorf("perf record: mkfifo %s: %w", p, err)
		}
	}
	var err error
	// O_RDWR: opening a FIFO so never blocks waiting for the other end.
	if r.ctl, err = os.OpenFile(ctlPath, os.O_RDWR, 0); err != nil {
		return fmt.Errorf("perf record: %w", err)
	}
	if r.ack, err = os.OpenFile(ackPath, os.O_RDWR, 0); err != nil {
		return fmt.Errorf("perf record: %w", err)
	}
	pids := make([]string, 0, len(procs))
	for _, p := range procs {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.PID)); err != nil {
			return fmt.Errorf("perf record: process %d (%s): %w", p.PID, p.Service, err)
		}
		pids = append(pids, strconv.Itoa(p.PID))
		r.services[p.PID] = p.Service
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", p.PID)); err == nil {
			r.exes["["+filepath.Base(exe)+"]"] = "[" + p.Service + " executable]"
			r.exePaths[exe] = true
		}
	}
	// Not CommandContext: perf must get SIGINT to write its data, not SIGKILL.
	// -B -N: no build-id collection at exit (perf script finds the
	// binaries by path; they are still there).
	args := []string{"record", "-e", "cpu-clock", "-g", "-F", strconv.Itoa(Frequency), "-B", "-N",
		"--delay=-1", "--control=fifo:" + ctlPath + "," + ackPath, "-q", "-o", filepath.Join(r.dir, "perf.data")}
	r.cmd = exec.Command("perf", append(args, target(pids)...)...)
	r.cmd.Stderr = &r.stderr
	if err := r.cmd.Start(); err != nil {
		return fmt.Errorf("perf record: %w", err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	if err := r.command(ctx, "enable"); err != nil {
		_ = r.cmd.Process.Kill()
		<-r.done
		return err
	}
	r.cpu0 = procCPU(r.cmd.Process.Pid)
	return nil
}

// command sends a control command to perf and waits for its ack.
func (r *Recorder) command(ctx context.Context, cmd string) error {
	if _, err := r.ctl.WriteString(cmd + "\n"); err != nil {
		return fmt.Errorf("perf record: %s: %w", cmd, err)
	}
	got := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(r.ack).ReadString('\n')
		if err == nil && strings.TrimSpace(line) != "ack" {
			err = fmt.Errorf("unexpected answer %q", line)
		}
		got <- err
	}()
	timer := time.NewTimer(ackTimeout)
	defer timer.Stop()
	select {
	case err := <-got:
		if err != nil {
			return fmt.Errorf("perf record: %s: %w", cmd, err)
		}
		return nil
	case err := <-r.done:
		r.done <- err
		return fmt.Errorf("perf record exited before %s: %v: %s", cmd, err, strings.TrimSpace(r.stderr.String()))
	case <-timer.C:
		return fmt.Errorf("perf record: no ack for %s within %v", cmd, ackTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stop disables perf's events (the window's end) and lets perf write its
// data; Fold then reads it. Stop is quick: it belongs in the window's end.
func (r *Recorder) Stop(ctx context.Context) error {
	if r.stopped {
		return nil
	}
	r.stopped = true
	cerr := r.command(ctx, "disable")
	r.cpu = procCPU(r.cmd.Process.Pid) - r.cpu0
	_ = r.cmd.Process.Signal(os.Interrupt)
	select {
	case <-r.done:
	case <-time.After(ackTimeout):
		_ = r.cmd.Process.Kill()
		<-r.done
		return errors.New("perf record did not exit after SIGINT")
	}
	return cerr
}

// Fold stops the recording if needed, folds its samples' stacks with
// `perf script`, and removes perf's data.
func (r *Recorder) Fold(ctx context.Context) (Profile, error) {
	defer r.cleanup()
	if err := r.Stop(ctx); err != nil {
		return Profile{}, err
	}
	script := exec.CommandContext(ctx, "perf", "script", "-i", filepath.Join(r.dir, "perf.data"), "-F", "pid,ip,sym,dso")
	out, err := script.StdoutPipe()
	if err != nil {
		return Profile{}, err
	}
	var stderr strings.Builder
	script.Stderr = &stderr
	if err := script.Start(); err != nil {
		return Profile{}, fmt.Errorf("perf script: %w", err)
	}
	p, perr := parseScript(out, func(pid int) string { return r.services[pid] }, r.resolver())
	if perr != nil {
		_, _ = io.Copy(io.Discard, out)
	}
	if err := script.Wait(); err != nil {
		return p, fmt.Errorf("perf script: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	p.PeriodNs = int64(time.Second) / Frequency
	p.PerfCPUSeconds = max(0, r.cpu.Seconds())
	renameFrames(p.Stacks, r.exes)
	return p, perr
}

// resolver names the addresses perf left unresolved in the tracked
// processes' executables after their ELF symbol tables (symtab.go);
// other files (libraries, anything a variant's process mapped) are not
// read.
func (r *Recorder) resolver() resolver {
	return &exeResolver{exes: r.exePaths, tables: map[string]*symTable{}, evidence: map[string]*addrEvidence{}}
}

// Discard stops the recording and removes its data.
func (r *Recorder) Discard(ctx context.Context) {
	_ = r.Stop(ctx)
	r.cleanup()
}

func (r *Recorder) cleanup() {
	for _, f := range []*os.File{r.ctl, r.ack} {
		if f != nil {
			f.Close()
		}
	}
	os.RemoveAll(r.dir)
}

// renameFrames names the frames of an executable without symbols after
// its service, not its file: two copies of a binary under different
// names are the same code.
func renameFrames(stacks []Stack, names map[string]string) {
	for _, s := range stacks {
		for i, f := range s.Frames {
			if n, ok := names[f]; ok {
				s.Frames[i] = n
			}
		}
	}
}

// procCPU is a process's user and system CPU time so far, from
// /proc/<pid>/stat (0 when it cannot be read).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: count from after it.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // field 14
	stime, err2 := strconv.ParseInt(f[12], 10, 64) // field 15
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times: 100 on
// every Linux architecture the lab runs on.
const clockTicks = 100

// target is what perf record watches. As root, every CPU (-a), and
// Fold keeps the samples of the tracked processes: per-thread events
// (-p) make perf spin on a process whose threads come and go, as GHC's
// runtime's do around foreign calls (perf 6.1 woke up 130,000 times a
// second and used as much CPU as the target), and miss processes started
// later. Otherwise (perf_event_paranoid allows no more) the processes.
func target(pids []string) []string {
	if os.Geteuid() == 0 {
		return []string{"-a"}
	}
	return []string{"-p", strings.Join(pids, ",")}
}

// Track adds processes whose samples Fold keeps (e.g. started during
// the window); call it before Fold.
func (r *Recorder) Track(procs []Process) {
	for _, p := range procs {
		if _, ok := r.services[p.PID]; !ok {
			r.services[p.PID] = p.Service
			if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", p.PID)); err == nil {
				r.exePaths[exe] = true
			}
		}
	}
}
