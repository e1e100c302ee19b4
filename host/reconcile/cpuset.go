package reconcile

import (
	"context"
	"maps"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// withCpuset adds AllowedCPUs= to a drop-in that pins by CPUAffinity= and
// sets no AllowedCPUs itself, when the supervisor can apply it to unit: a
// cgroup cpuset holds what the unit and everything it starts may run on,
// where an affinity is only where they start (a process may widen its own
// again: GHC's -qa sets one per capability). The direct supervisor says
// whether it can (it needs the cpuset controller and the rights to make a
// cgroup); under systemd the setting is written, and takes effect where
// its unified hierarchy holds the cpuset controller (cgroup v2), while
// the affinity pins either way. settings is not changed.
func (l *Server) withCpuset(ctx context.Context, unit string, settings map[string]string) map[string]string {
	cpus, pinned := settings["CPUAffinity"]
	if _, set := settings["AllowedCPUs"]; !pinned || set || unit == "" {
		return settings
	}
	if c, ok := l.cfg.Ctl.(systemd.SettingsChecker); ok {
		if c.CheckSettings(ctx, unit, map[string]string{"AllowedCPUs": cpus}) != nil {
			return settings // affinity only: no cpuset here
		}
	}
	out := maps.Clone(settings)
	out["AllowedCPUs"] = cpus
	return out
}
