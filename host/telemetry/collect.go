package telemetry

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"
)

// collector reads one source. It keeps its buffers and resolved cgroup
// paths between ticks so that a tick allocates little.
type collector struct {
	fs        FS
	src       Source
	buf       []byte
	pids      []int
	procsPath string // resolved cgroup.procs, "" until found
	cpuPath   string // resolved cpu.stat / cpuacct.usage
	memPath   string // resolved memory.current / memory.usage_in_bytes
	peakPath  string // resolved memory.peak / memory.max_usage_in_bytes ("" when the kernel keeps none)
	last      Sample // last detailed sample
}

func newCollector(fsys FS, src Source) *collector {
	return &collector{fs: fsys, src: src, buf: make([]byte, 64<<10)}
}

// errNotRunning means the source has no processes right now.
var errNotRunning = errors.New("not running")

// cpuFrom says where CPU time comes from.
func (c *collector) cpuFrom() string {
	if c.cpuPath != "" {
		return "cgroup:" + c.cpuPath
	}
	return "proc"
}

// resolve finds the cgroup files again (after a restart systemd creates
// a new cgroup of the same name).
func (c *collector) resolve() {
	cg := c.src.ControlGroup
	c.procsPath = c.fs.cgroupFile(cg, "cgroup.procs", "systemd", "pids", "memory")
	c.cpuPath = c.fs.cgroupFile(cg, "cpu.stat")
	if c.cpuPath == "" {
		c.cpuPath = c.fs.cgroupFile(cg, "cpuacct.usage", "cpuacct", "cpu,cpuacct")
	}
	c.memPath = c.fs.cgroupFile(cg, "memory.current")
	if c.memPath == "" {
		c.memPath = c.fs.cgroupFile(cg, "memory.usage_in_bytes", "memory")
	}
	c.peakPath = c.fs.cgroupFile(cg, "memory.peak")
	if c.peakPath == "" {
		c.peakPath = c.fs.cgroupFile(cg, "memory.max_usage_in_bytes", "memory")
	}
}

// listProcs fills c.pids.
func (c *collector) listProcs() error {
	c.pids = c.pids[:0]
	if c.src.ControlGroup == "" {
		var err error
		c.pids, err = c.fs.treeProcs(c.src.RootPID, c.buf, c.pids)
		if errors.Is(err, fs.ErrNotExist) {
			return errNotRunning
		}
		return err
	}
	if c.procsPath == "" {
		c.resolve()
	}
	if c.procsPath == "" {
		return errNotRunning
	}
	var err error
	c.pids, err = cgroupProcs(c.procsPath, c.buf, c.pids)
	if errors.Is(err, fs.ErrNotExist) {
		c.resolve()
		if c.procsPath == "" {
			return errNotRunning
		}
		c.pids, err = cgroupProcs(c.procsPath, c.buf, c.pids[:0])
	}
	if err == nil && len(c.pids) == 0 {
		return errNotRunning
	}
	return err
}

// collect takes one sample. A source that is not running yields a sample
// with Procs == 0 and a nil error. Without detail it reads only the
// cgroup's process list and CPU counter and carries the rest over from the
// last detailed sample (a process tree without a cgroup is not read at
// all).
func (c *collector) collect(now time.Time, detail bool) (Sample, error) {
	if !detail {
		return c.collectCheap(now)
	}
	s := Sample{T: now, Detail: true}
	defer func() { c.last = s }()
	if err := c.listProcs(); err != nil {
		if err == errNotRunning {
			return s, nil
		}
		return s, fmt.Errorf("%s: list processes: %w", c.src.Name, err)
	}
	v, ok := c.cgroupCPU()
	s.CPUSeconds = v
	s.CgroupMem = c.cgroupMem()
	s.CgroupPeak = c.readCounter(c.peakPath)
	useProcCPU := !ok
	for _, pid := range c.pids {
		st, err := c.fs.readStatus(pid, c.buf)
		if err != nil {
			continue // exited between listing and reading
		}
		s.Procs++
		s.RSS += st.rss
		s.RSSAnon += st.rssAnon
		s.Threads += st.threads
		s.CtxSwitches += st.ctxSwitches
		if n, err := c.fs.countFDs(pid); err == nil {
			s.FDs += n
		}
		if useProcCPU {
			if b, err := readFile(c.fs.proc(strconv.Itoa(pid), "stat"), c.buf); err == nil {
				if ps, ok := parseStat(b); ok {
					s.CPUSeconds += ps.cpuSeconds()
				}
			}
		}
	}
	return s, nil
}

// cgroupCPU reads the cgroup's CPU counter; false without one.
func (c *collector) cgroupCPU() (float64, bool) {
	if c.src.ControlGroup == "" || c.cpuPath == "" {
		return 0, false
	}
	v, err := cgroupCPUSeconds(c.cpuPath, c.buf)
	if err != nil { // cgroup recreated by a restart: find it again
		c.resolve()
		if c.cpuPath == "" {
			return 0, false
		}
		if v, err = cgroupCPUSeconds(c.cpuPath, c.buf); err != nil {
			return 0, false
		}
	}
	return v, true
}

// collectCheap is a tick without the expensive per-process reads (status,
// fds). It keeps CPU fresh: from the cgroup's counter, or, for a process
// tree without a cgroup, from /proc/<pid>/stat of the processes the last
// detailed tick found (carrying the last value over made the per-sample CPU
// of a tree alternate between 0 and twice the real figure).
func (c *collector) collectCheap(now time.Time) (Sample, error) {
	s := c.last
	s.T, s.Detail = now, false
	if c.src.ControlGroup == "" {
		if cpu, ok := c.procCPU(); ok {
			s.CPUSeconds = cpu
		}
		return s, nil
	}
	if err := c.listProcs(); err != nil {
		if err == errNotRunning {
			return Sample{T: now}, nil
		}
		return s, fmt.Errorf("%s: list processes: %w", c.src.Name, err)
	}
	s.Procs = len(c.pids)
	if v, ok := c.cgroupCPU(); ok {
		s.CPUSeconds = v
	}
	s.CgroupMem = c.cgroupMem()
	return s, nil
}

// cgroupMem reads the memory charged to the cgroup; 0 without a counter.
func (c *collector) cgroupMem() uint64 { return c.readCounter(c.memPath) }

// readCounter reads a cgroup file of one number; 0 without it.
func (c *collector) readCounter(path string) uint64 {
	if path == "" {
		return 0
	}
	b, err := readFile(path, c.buf)
	if err != nil {
		return 0 // gone with a restart; resolve() finds the new one
	}
	v, _ := atou(b)
	return v
}

// procCPU sums the CPU time (with reaped children) of the processes the
// last listing found; false when none could be read.
func (c *collector) procCPU() (float64, bool) {
	var sum float64
	read := false
	for _, pid := range c.pids {
		b, err := readFile(c.fs.proc(strconv.Itoa(pid), "stat"), c.buf)
		if err != nil {
			continue // exited since the listing
		}
		if ps, ok := parseStat(b); ok {
			sum += ps.cpuSeconds()
			read = true
		}
	}
	return sum, read
}
