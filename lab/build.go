package lab

import (
	"regexp"
	"strings"
)

// Build is what a variant's server binary was built from: what lets runs
// of the same PostgREST be put in one series and a change be traced to a
// commit. Version and Commit come from the binary's `--version`; Repo and
// Ref are set when the lab built the binary from a git repository.
type Build struct {
	Version string // e.g. "13.0.8"
	Commit  string // git commit as the binary or the repository gave it ("" when unknown)
	Repo    string // the repository the lab built it from
	Ref     string // the ref it was asked to build (branch, tag, SHA)
}

// IsZero reports whether nothing is known of the build.
func (b Build) IsZero() bool { return b == Build{} }

// Label is the build's shortest useful name: the commit's first 7 hex
// digits, else the version.
func (b Build) Label() string {
	if b.Commit != "" {
		return ShortCommit(b.Commit)
	}
	return b.Version
}

// versionRe reads `PostgREST 13.0.8` and a development build's
// `PostgREST 13.0.8 (a1b2c3d)`, and postgrest-mini's `postgrest-mini 0.1
// (PostgREST 13 compatible)` (a version, no commit).
var versionRe = regexp.MustCompile(`^\S+ v?([0-9]+(?:\.[0-9]+)*(?:[-+][0-9A-Za-z.-]+)?)(?: \(([0-9a-fA-F]{7,40})\))?`)

// ParseBuild reads a binary's `--version` output (its first line).
func ParseBuild(version string) Build {
	line, _, _ := strings.Cut(strings.TrimSpace(version), "\n")
	m := versionRe.FindStringSubmatch(line)
	if m == nil {
		return Build{}
	}
	return Build{Version: m[1], Commit: strings.ToLower(m[2])}
}

// TrackedVariant names the variant of a tracked run (lab track) that is
// the commit's build; ReferenceVariant, the fixed build it is measured
// beside when it has one (lab track --reference). A run with both names
// the build it measured after the tracked one, not after its baseline.
const (
	TrackedVariant   = "build"
	ReferenceVariant = "reference"
)

// MeasuredBuild is the build a run measured: its baseline variant's
// (named baseline). A record written before builds were recorded has only
// the --version output (the variant's, else the target's): it is parsed
// as the lab parses it now, so that old and new runs line up in one
// series; what does not parse is kept whole as the version.
func MeasuredBuild(run *Run, baseline string) Build {
	raw := run.Target.Version
	for _, v := range run.Variants {
		if v.Name != baseline {
			continue
		}
		if !v.Build.IsZero() {
			return v.Build
		}
		if v.Version != "" {
			raw = v.Version
		}
	}
	b := ParseBuild(raw)
	if b.Version == "" {
		b.Version = strings.TrimSpace(raw)
	}
	return b
}
