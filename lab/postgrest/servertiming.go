package postgrest

import (
	"fmt"
	"regexp"
	"strings"
)

// What a Server-Timing phase's duration measures (PhaseClock).
const (
	// ClockCPU is the CPU time of the whole process while the phase ran
	// (timeit-2.0's getCPUTime): waiting for PostgreSQL does not count,
	// and under concurrency a phase includes other requests' CPU.
	ClockCPU = "cpu"
	// ClockWall is the phase's wall-clock (monotonic) time.
	ClockWall = "wall"
)

// The versions that decide the clock: Server-Timing came in 12.0.0
// (CHANGELOG.md at v13.0.8, #2771), timed with timeit-2.0's timeItT (CPU
// time: src/PostgREST/App.hs at v13.0.8 and v14.1). PostgREST#4522 ("fix:
// inaccurate Server-Timing durations") vendored timeItT over
// GHC.Clock.getMonotonicTime (src/PostgREST/TimeIt.hs): on the v14 branch
// in commit 4d35eb02e, released in v14.2; on main in commit 013f078, in
// v16.0. Both print one decimal of a millisecond
// (src/PostgREST/Response/Performance.hs).
const (
	serverTimingSince = "12.0"
	wallClockSince    = "14.2"
	// mainDevMajor is main's development version between v14 and v16
	// (postgrest.cabal says "15" before and after 013f078): its builds
	// may time either way.
	mainDevMajor = "15"
)

// postgrestMini is how the lab's reference server starts its --version; it
// times the phases with time.Now (cmd/postgrest-mini/internal/server/timing.go).
const postgrestMini = "postgrest-mini"

// versionNumberRe finds the dotted version in a bare version ("14.17",
// "v14.17") or a `--version` line ("PostgREST 14.17 (a1b2c3d)").
var versionNumberRe = regexp.MustCompile(`^(?:\S+ )?v?([0-9]+(?:\.[0-9]+)*)`)

// PhaseClock says what the Server-Timing phases of a PostgREST version
// measure: ClockCPU before 14.2, ClockWall from 14.2 (PostgREST#4522), and
// ClockWall for postgrest-mini. version is a bare version ("13.0.8") or a
// binary's `--version` output. It returns "" when that is not known: no
// version, one before Server-Timing (12.0), or a development build of
// main ("15"), which may come from before or after the fix.
func PhaseClock(version string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(version), "\n")
	if strings.HasPrefix(strings.ToLower(line), postgrestMini) {
		return ClockWall
	}
	m := versionNumberRe.FindStringSubmatch(line)
	switch {
	case m == nil:
		return ""
	case compareVersions(m[1], serverTimingSince) < 0:
		return ""
	case strings.Split(m[1], ".")[0] == mainDevMajor:
		return ""
	case compareVersions(m[1], wallClockSince) < 0:
		return ClockCPU
	}
	return ClockWall
}

// PhaseClockNote says why the Server-Timing phases of two builds are not
// compared, or "" when they measure the same clock: e.g. "13.0.8 reports
// CPU time, 14.17 wall clock (PostgREST #4522, 14.2): not comparable".
// a and b name the builds (a version, or a `--version` line); two builds
// whose clock is unknown are compared, as the lab did before it knew.
func PhaseClockNote(a, b string) string {
	ca, cb := PhaseClock(a), PhaseClock(b)
	if ca == cb {
		return ""
	}
	return fmt.Sprintf("%s reports %s, %s %s (PostgREST #4522, %s): not comparable",
		versionLabel(a), clockWords(ca), versionLabel(b), clockWords(cb), wallClockSince)
}

// versionLabel is a build as a note names it: the version number, else
// the first line as given.
func versionLabel(v string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(v), "\n")
	switch m := versionNumberRe.FindStringSubmatch(line); {
	case strings.HasPrefix(strings.ToLower(line), postgrestMini):
		return postgrestMini
	case m != nil:
		return m[1]
	case line == "":
		return "a build of unknown version"
	}
	return line
}

func clockWords(c string) string {
	switch c {
	case ClockCPU:
		return "CPU time"
	case ClockWall:
		return "wall clock"
	}
	return "an unknown clock"
}
