package direct

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// layout is where this host mounts the kernel's cgroup hierarchies, as
// /proc/self/mountinfo says: a pure cgroup v2 host has one unified
// hierarchy with the controllers; a hybrid (v1) host mounts each v1
// controller on its own (e.g. /sys/fs/cgroup/memory) and a v2 hierarchy
// without controllers (e.g. /sys/fs/cgroup/unified).
type layout struct {
	unified string            // the cgroup2 mount; "" when none
	v2ctl   map[string]bool   // controllers the unified hierarchy offers (its root's cgroup.controllers)
	v1      map[string]string // v1 controller (cpu, cpuacct, cpuset, memory) -> its hierarchy's mount
}

// v1Controllers are the v1 controllers the direct supervisor uses.
var v1Controllers = []string{"cpu", "cpuacct", "cpuset", "memory"}

// hostLayout reads the running host's layout.
func hostLayout() (layout, error) { return readLayout("/proc/self/mountinfo") }

// readLayout parses a mountinfo file (proc(5)): the first mount of each
// v1 controller and the first cgroup2 mount.
func readLayout(mountinfo string) (layout, error) {
	l := layout{v1: map[string]string{}, v2ctl: map[string]bool{}}
	f, err := os.Open(mountinfo)
	if err != nil {
		return l, fmt.Errorf("cgroup layout: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		// 31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, after := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(after) < 3 {
			continue
		}
		mnt := unescapeMount(fields[4])
		switch after[0] {
		case "cgroup2":
			if l.unified == "" {
				l.unified = mnt
			}
		case "cgroup":
			for _, o := range strings.Split(after[2], ",") {
				for _, c := range v1Controllers {
					if o == c && l.v1[c] == "" {
						l.v1[c] = mnt
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return l, fmt.Errorf("cgroup layout: %s: %w", mountinfo, err)
	}
	if l.unified != "" {
		if b, err := os.ReadFile(filepath.Join(l.unified, "cgroup.controllers")); err == nil {
			for _, c := range strings.Fields(string(b)) {
				l.v2ctl[c] = true
			}
		}
	}
	return l, nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var n int
			if _, err := fmt.Sscanf(s[i+1:i+4], "%03o", &n); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hierarchy says where controller ctl lives: its v1 mount, or the unified
// mount when v2 offers it (v2 true); "" when the kernel offers it nowhere.
// A controller is in one hierarchy at a time; v1 wins, as on a hybrid host.
func (l layout) hierarchy(ctl string) (mount string, v2 bool) {
	if m := l.v1[ctl]; m != "" {
		return m, false
	}
	if l.unified != "" && l.v2ctl[ctl] {
		return l.unified, true
	}
	return "", false
}

// describe names the layout for messages.
func (l layout) describe() string {
	switch {
	case len(l.v1) > 0 && l.unified != "":
		return "hybrid cgroups (v1 controllers, v2 at " + l.unified + ")"
	case len(l.v1) > 0:
		return "cgroup v1"
	case l.unified != "":
		return "cgroup v2 at " + l.unified
	}
	return "no cgroup file system mounted"
}
