package telemetry

import (
	"os"
	"path/filepath"
)

// cgroupFile finds file for the control group cg: first in the cgroup v2
// hierarchy of a hybrid host (<root>/unified<cg>), then a pure v2 host
// (<root><cg>), then the given v1 hierarchies (<root>/<h><cg>). It returns
// "" when the cgroup does not exist (not started yet, or removed by systemd
// after the unit stopped).
func (fs FS) cgroupFile(cg, file string, v1 ...string) string {
	cands := []string{
		filepath.Join(fs.Cgroup, "unified", cg, file),
		filepath.Join(fs.Cgroup, cg, file),
	}
	for _, h := range v1 {
		cands = append(cands, filepath.Join(fs.Cgroup, h, cg, file))
	}
	for _, p := range cands {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}
