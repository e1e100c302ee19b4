package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func init() {
	register(command{name: "ab", summary: "compare two PostgREST executables (A is the baseline)", run: cmdAB})
}

const abUsage = `ab PATH_A PATH_B [SCENARIO...] [flags]

Compares two PostgREST executables on the local stack: the bundled
'binaries' experiment (closed model, interleaved rounds until decided) with
A as the baseline, on the given scenarios or on all eight built-in ones
(` + "GETSingle GETSingleEmbed GETAllEmbed POSTSingle POSTBulk RPCSimple RPCGETSingle RPCGETSingleEmbed" + `).
Each executable is asked its --version first; the versions are in every
report. The variants are named a and b, or NAME=PATH names them, e.g.
'lab ab base=/usr/bin/postgrest pr=./dist/postgrest'. Same as
'lab run binaries --binary a=PATH_A --binary b=PATH_B --scenarios ...', with
its flags (--markdown, --gate, --min-trials, ...).`

func cmdAB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runWith(ctx, "ab", abUsage, args, stdout, stderr, abExperiment)
}

// abExperiment reads `lab ab`'s positional arguments: two executables
// (PATH or NAME=PATH), then scenarios.
func abExperiment(pos []string, pf *prFlags) (string, error) {
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
	} else if pf.scenarios == nil {
		pf.scenarios = append([]string(nil), lab.BuiltinScenarios...)
	}
	return "binaries", nil
}

// abBinary reads PATH (named name) or NAME=PATH; a path that exists as
// given is a path even when it holds '='.
func abBinary(arg, name string) (namedBinary, error) {
	if _, err := os.Stat(arg); err != nil && strings.Contains(arg, "=") {
		return parseBinary(arg)
	}
	return parseBinary(fmt.Sprintf("%s=%s", name, arg))
}
