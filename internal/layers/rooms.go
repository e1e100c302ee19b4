package layers

import "strings"

// A Room is a set of packages (by path prefix below the module) and the
// rooms they may import besides their own.
type Room struct {
	Name string
	// Packages are module-relative paths; "x/..." matches x and below.
	Packages []string
	// MayImport names the other rooms this room's packages may import.
	// A room may always import its own packages.
	MayImport []string
	// Alone means the room's packages may not import each other (each is
	// an adapter of its own); a package's own subpackages still count as
	// its own.
	Alone bool
}

// Rooms is the house, lowest first. A package belongs to the room with the
// longest matching prefix.
var Rooms = []Room{
	// Utilities any layer may use, one fact each.
	{Name: "leaves", Packages: []string{"internal/..."}},
	// How numbers, durations, counts and the k6 table are written: the one
	// formatter every room that prints uses (the report room's shared
	// pieces; loadgen's progress line too).
	{Name: "format", Packages: []string{"lab/report/format"},
		MayImport: []string{"leaves"}},
	// What the lab knows of PostgREST and what a variant may change: facts
	// the domain and the adapters both read.
	{Name: "facts", Packages: []string{"lab/capability", "lab/postgrest/...", "lab/changepoint"},
		MayImport: []string{"leaves"}},
	// The domain types and the run loop's ports.
	{Name: "domain", Packages: []string{"lab"},
		MayImport: []string{"leaves", "format", "facts"}},
	// Pure computation over the domain: statistics, records, calibration,
	// history, profiles, tracking plans, bisection.
	{Name: "analysis", Packages: []string{"lab/stats/...", "lab/record/...", "lab/calibrate", "lab/gate",
		"lab/history/...", "lab/profiles", "lab/track", "lab/bisect"},
		MayImport: []string{"leaves", "format", "facts", "domain"}},
	// Every renderer.
	{Name: "report", Packages: []string{"lab/report/..."},
		MayImport: []string{"leaves", "format", "facts", "domain", "analysis"}},
	// A run's session: validate once, run, compute verdicts once, write.
	{Name: "session", Packages: []string{"lab/session/..."},
		MayImport: []string{"leaves", "format", "facts", "domain", "analysis", "report"}},
	// Adapters to the machine that know nothing of the lab: systemd and its
	// supervisors, telemetry, the profiler, git builds.
	{Name: "system adapters", Alone: true,
		Packages:  []string{"systemd/...", "host/telemetry/...", "host/profiler/...", "gitbuild/..."},
		MayImport: []string{"leaves", "format"}},
	// Adapters that speak the lab's domain: PostgREST config files, the load
	// generator, the results store.
	{Name: "lab adapters", Alone: true,
		Packages:  []string{"configs/...", "loadgen/...", "store/..."},
		MayImport: []string{"leaves", "format", "facts", "domain", "analysis"}},
	// The experiment file format: read by the wiring, which hands the
	// session a validated experiment.
	{Name: "experiment files", Packages: []string{"experiments/..."},
		MayImport: []string{"leaves", "format", "facts", "domain"}},
	// The server host's roles, composed of the adapters.
	{Name: "host", Packages: []string{"host", "host/reconcile/...", "host/stack/...", "host/agent/..."},
		MayImport: []string{"leaves", "format", "facts", "domain", "system adapters", "lab adapters"}},
	// The commands: wiring only.
	{Name: "wiring", Packages: []string{"cmd/..."},
		MayImport: []string{"leaves", "format", "facts", "domain", "analysis", "report", "session",
			"system adapters", "lab adapters", "experiment files", "host"}},
}

// match reports whether pkg is matched by pattern and how long the match is.
func match(pattern, pkg string) (int, bool) {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		if pkg == base || strings.HasPrefix(pkg, base+"/") {
			return len(base), true
		}
		return 0, false
	}
	return len(pattern), pkg == pattern
}

// Locate returns the room of a module-relative package path and the
// pattern that placed it there, or ok false when no room claims it.
func Locate(rooms []Room, pkg string) (room *Room, pattern string, ok bool) {
	best := -1
	for i := range rooms {
		for _, p := range rooms[i].Packages {
			if n, m := match(p, pkg); m && n > best {
				best, room, pattern, ok = n, &rooms[i], p, true
			}
		}
	}
	return room, pattern, ok
}
