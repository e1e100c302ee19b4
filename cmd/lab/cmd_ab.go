package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func init() {
	register(command{name: "ab", summary: "compare two PostgREST executables (A is the baseline)", run: cmdAB})
}

const abUsage = `ab PATH_A PATH_B [SCENARIO...] [flags]
   ab --repo DIR REF_A REF_B [REF...] [SCENARIO...] [flags]
   ab --repo DIR [REF] --base REF [--release latest|TAG] [SCENARIO...] [flags]

Compares two PostgREST executables on the local stack with the bundled
'binaries' experiment, A the baseline: both served at once (a duet on the
stack's target and its twin), at 65% of A's capacity, on PostgREST's load
test (experiments/loadtest/targets.http, or --targets FILE), until the
sequential test decides. The headline is CPU per request; every line of
the targets file gets P0, P50, P90, P95 and P99 tested (Holm across lines)
with its MDE. --per-line makes each line a scenario of its own, with its
own capacity and CPU per request verdict (longer; docs/calibration.md).
Given scenarios (e.g. GETSingle POSTSingle; built-in:
` + "GETSingle GETSingleEmbed GETAllEmbed POSTSingle POSTBulk RPCSimple RPCGETSingle RPCGETSingleEmbed" + `),
it runs those instead.
Each executable is asked its --version first; the versions are in every
report. The variants are named a and b, or NAME=PATH names them, e.g.
'lab ab base=/usr/bin/postgrest pr=./dist/postgrest'. Same as
'lab run binaries --binary a=PATH_A --binary b=PATH_B', with its flags
(--markdown, --gate, --min-trials, --order, ...).

With --repo, the arguments are git refs of that repository (branches, tags,
SHAs; the built-in scenarios' names are scenarios): each is resolved to its
commit, checked out in its own worktree under $XDG_CACHE_HOME/pgrst-lab/builds
and built with --build CMD (else $LAB_BUILD, else nix-build when the
repository has a default.nix, else cabal or stack), all before the first
trial; a commit built before is not built again. The variants are named by
the refs. With --base REF, one ref (HEAD when none is given) is compared
with the base (the baseline) and, with --release latest (the newest v* tag
merged into the base) or --release TAG, with that release too, in one run:
three builds cannot share a duet, so they run one after the other, in a
new random order every round.
HEAD with uncommitted changes is refused unless --allow-dirty.`

func cmdAB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runWith(ctx, "ab", abUsage, args, stdout, stderr, abExperiment)
}

// abExperiment reads `lab ab`'s positional arguments: two executables
// (PATH or NAME=PATH), then scenarios.
func abExperiment(pos []string, pf *prFlags) (string, error) {
	if pf.git.repo != "" {
		if len(pf.binaries) > 0 {
			return "", usageErrorf("ab --repo: the refs are its arguments; --binary is for 'lab run'")
		}
		if pf.scenarios != nil && slices.ContainsFunc(pos, func(p string) bool { return slices.Contains(lab.BuiltinScenarios, p) }) {
			return "", usageErrorf("ab: give scenarios as arguments or with --scenarios, not both")
		}
		if err := abRefs(pos, pf); err != nil {
			return "", err
		}
		return "binaries", nil
	}
	if pf.git.base != "" || pf.git.release != "" {
		return "", usageErrorf("ab: --base and --release compare git refs: give the repository with --repo DIR")
	}
	if len(pos) < 2 {
		return "", usageErrorf("ab: give two executables, PATH_A PATH_B (A is the baseline), then optionally scenarios")
	}
	if len(pf.binaries) > 0 {
		return "", usageErrorf("ab: the executables are its first two arguments; --binary is for 'lab run'")
	}
	for i, arg := range pos[:2] {
		b, err := abBinary(arg, string(rune('a'+i)))
		if err != nil {
			return "", usageErrorf("ab: executable %s: %v", string(rune('A'+i)), err)
		}
		pf.binaries = append(pf.binaries, b)
	}
	if sc := pos[2:]; len(sc) > 0 {
		if pf.scenarios != nil {
			return "", usageErrorf("ab: give scenarios as arguments or with --scenarios, not both")
		}
		pf.scenarios = sc
	}
	return "binaries", nil
}

// abBinary reads PATH (named name) or NAME=PATH; a path that exists as
// given is a path even when it holds '='.
func abBinary(arg, name string) (lab.Binary, error) {
	if _, err := os.Stat(arg); err != nil && strings.Contains(arg, "=") {
		return parseBinary(arg)
	}
	return parseBinary(fmt.Sprintf("%s=%s", name, arg))
}
