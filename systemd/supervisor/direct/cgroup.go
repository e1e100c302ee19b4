package direct

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// labParent is the lab's own directory at the top of each cgroup
// hierarchy; a unit's cgroup is <labParent>/<state dir id>/<unit>, the
// same relative path in every hierarchy, as systemd's ControlGroup is.
const labParent = "pgrst-lab"

// unitCgroup is the cgroup a unit's process runs in under the direct
// supervisor, kept in the unit's state so a later lab process finds it.
type unitCgroup struct {
	Rel string `json:"rel"` // e.g. /pgrst-lab/1a2b3c4d/lab-target.service (Props.ControlGroup)
	// Dirs are the cgroup's directories by controller (memory, cpu,
	// cpuacct, cpuset); v2 controllers share the unified one, and
	// controllers of one v1 mount share theirs.
	Dirs map[string]string `json:"dirs"`
}

// cgroupRel is the relative cgroup path of unit for the supervisor whose
// state is in dir: two lab stacks on one host never share a cgroup.
func cgroupRel(dir, unit string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	sum := sha256.Sum256([]byte(abs))
	return "/" + labParent + "/" + hex.EncodeToString(sum[:4]) + "/" + unit
}

// controllers are those a cgroup with writes uses: the writes' own, and
// memory and v1's cpuacct when the host has them (for MemoryCurrent, OOM
// kills and CPU time).
func (l layout) controllers(writes []cgWrite) []string {
	set := map[string]bool{}
	for _, w := range writes {
		set[w.ctl] = true
	}
	if m, _ := l.hierarchy("memory"); m != "" {
		set["memory"] = true
	}
	if l.v1["cpuacct"] != "" {
		set["cpuacct"] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// checkCgroupAccess says why this process cannot create cgroups for the
// controllers: the lab parent (or, before it exists, the hierarchy's
// root) must be writable.
func checkCgroupAccess(l layout, ctls []string) error {
	for _, ctl := range ctls {
		mount, v2 := l.hierarchy(ctl)
		if mount == "" {
			continue
		}
		p := filepath.Join(mount, labParent)
		if _, err := os.Stat(p); err != nil {
			p = mount
		}
		if err := unix.Access(p, unix.W_OK); err != nil {
			kind := "cgroup v1 " + ctl
			if v2 {
				kind = "cgroup v2"
			}
			return fmt.Errorf("the unit's cgroup (%s) goes under %s, which uid %d cannot write (%v): run the lab as root, delegate %s to this user, or use systemd",
				kind, filepath.Join(mount, labParent), os.Geteuid(), err, filepath.Join(mount, labParent))
		}
	}
	return nil
}

// createCgroup makes the unit's cgroup at rel in every hierarchy its
// controllers live in and writes the limits. On error, what it made is
// removed.
func createCgroup(l layout, rel string, writes []cgWrite) (cg *unitCgroup, err error) {
	cg = &unitCgroup{Rel: rel, Dirs: map[string]string{}}
	defer func() {
		if err != nil {
			_ = cg.remove(context.Background())
			cg = nil
		}
	}()
	var v2ctls []string
	for _, ctl := range l.controllers(writes) {
		mount, v2 := l.hierarchy(ctl)
		if mount == "" {
			continue
		}
		cg.Dirs[ctl] = filepath.Join(mount, rel)
		if v2 {
			v2ctls = append(v2ctls, ctl)
		}
	}
	made := map[string]bool{}
	for _, ctl := range slices.Sorted(maps.Keys(cg.Dirs)) {
		mount, v2 := l.hierarchy(ctl)
		if made[mount] {
			continue
		}
		made[mount] = true
		ctls := []string{ctl}
		if v2 {
			ctls = v2ctls
		}
		if err := makeLevels(mount, rel, ctls, v2); err != nil {
			return cg, err
		}
	}
	for _, w := range writes {
		p := filepath.Join(cg.Dirs[w.ctl], w.file)
		if w.optional {
			if _, err := os.Stat(p); err != nil {
				continue
			}
		}
		if err := writeControl(p, w.value); err != nil {
			return cg, err
		}
	}
	return cg, nil
}

// makeLevels creates rel below mount, one level at a time: on v2 each
// parent's cgroup.subtree_control gets the controllers (a cgroup without
// processes may hand them down); on v1 a new cpuset gets its parent's
// CPUs and memory nodes (it has none of its own, and no task may join it
// without).
func makeLevels(mount, rel string, ctls []string, v2 bool) error {
	cur := mount
	for _, part := range strings.Split(strings.Trim(rel, "/"), "/") {
		if v2 {
			if err := enableControllers(cur, ctls); err != nil {
				return err
			}
		}
		parent := cur
		cur = filepath.Join(cur, part)
		if err := os.Mkdir(cur, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("cgroup: %w", err)
		}
		if !v2 && slices.Contains(ctls, "cpuset") {
			for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
				own, _ := os.ReadFile(filepath.Join(cur, f))
				if strings.TrimSpace(string(own)) != "" {
					continue
				}
				from, err := os.ReadFile(filepath.Join(parent, f))
				if err != nil {
					return fmt.Errorf("cgroup: %w", err)
				}
				if err := writeControl(filepath.Join(cur, f), strings.TrimSpace(string(from))); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// enableControllers adds the controllers missing from dir's
// cgroup.subtree_control.
func enableControllers(dir string, ctls []string) error {
	p := filepath.Join(dir, "cgroup.subtree_control")
	b, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cgroup: %w", err)
	}
	have := strings.Fields(string(b))
	var add []string
	for _, c := range ctls {
		if !slices.Contains(have, c) {
			add = append(add, "+"+c)
		}
	}
	if len(add) == 0 {
		return nil
	}
	return writeControl(p, strings.Join(append(prefixed(have), add...), " "))
}

func prefixed(ctls []string) []string {
	out := make([]string, len(ctls))
	for i, c := range ctls {
		out[i] = "+" + c
	}
	return out
}

// writeControl writes one value to a control file (creating it only
// where it is not a cgroup file system: the tests' fake tree).
func writeControl(path, value string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cgroup: write %q to %s: %w", value, path, err)
	}
	return nil
}

// dirs are the cgroup's distinct directories, sorted.
func (cg *unitCgroup) dirs() []string {
	set := map[string]bool{}
	for _, d := range cg.Dirs {
		set[d] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// attach moves pid into the cgroup in every hierarchy.
func (cg *unitCgroup) attach(pid int) error {
	for _, d := range cg.dirs() {
		if err := writeControl(filepath.Join(d, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

// procs lists the processes in the cgroup, in any hierarchy.
func (cg *unitCgroup) procs() []int {
	var out []int
	for _, d := range cg.dirs() {
		b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// remove kills what is left in the cgroup (as systemd's
// KillMode=control-group does), then removes its directories and, when
// no other unit uses them, the lab's parents.
func (cg *unitCgroup) remove(ctx context.Context) error {
	if cg == nil {
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for ps := cg.procs(); len(ps) > 0; ps = cg.procs() {
		for _, p := range ps {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("cgroup %s: processes %v survive SIGKILL", cg.Rel, ps)
		}
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Millisecond): // polls the cgroup's process list
		}
	}
	var errs []error
	for _, d := range cg.dirs() {
		if err := removeCgroupDir(d); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove cgroup: %w", err))
			continue
		}
		// The lab's parents go when empty (EBUSY or ENOTEMPTY otherwise).
		for up := filepath.Dir(d); strings.Contains(up, "/"+labParent); up = filepath.Dir(up) {
			if removeCgroupDir(up) != nil {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// removeCgroupDir removes a cgroup directory (rmdir: the kernel drops its
// control files with it).
func removeCgroupDir(d string) error {
	if err := syscall.Rmdir(d); err != nil {
		return &os.PathError{Op: "rmdir", Path: d, Err: err}
	}
	return nil
}

// memoryCurrent is the cgroup's memory use in bytes (v2 memory.current,
// v1 memory.usage_in_bytes); ok is false without a memory controller.
func (cg *unitCgroup) memoryCurrent() (uint64, bool) {
	d := cg.Dirs["memory"]
	if d == "" {
		return 0, false
	}
	for _, f := range []string{"memory.current", "memory.usage_in_bytes"} {
		if b, err := os.ReadFile(filepath.Join(d, f)); err == nil {
			if n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// oomKills is how many processes the OOM killer killed in the cgroup: v2
// memory.events oom_kill, v1 memory.oom_control oom_kill (or under_oom,
// on kernels before 4.13, as one).
func (cg *unitCgroup) oomKills() uint64 {
	d := cg.Dirs["memory"]
	if d == "" {
		return 0
	}
	for _, f := range []string{"memory.events", "memory.oom_control"} {
		b, err := os.ReadFile(filepath.Join(d, f))
		if err != nil {
			continue
		}
		var under uint64
		for _, line := range strings.Split(string(b), "\n") {
			k, v, _ := strings.Cut(line, " ")
			n, _ := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			switch k {
			case "oom_kill":
				return n
			case "under_oom":
				under = n
			}
		}
		return under
	}
	return 0
}
