package main

import (
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/internal/ghcrts"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// cli is the parsed command line, PostgREST-style:
//
//	postgrest-mini [--help|--version|--dump-config] [+RTS ... -RTS] [FILENAME]
//
// GHC runtime options mean what package ghcrts says: -N<n> sets
// GOMAXPROCS, the others are ignored (and listed in ignoredRTS, which the
// server logs: there is no GHC runtime).
type cli struct {
	path       string // "" = configure from the environment only
	help       bool
	version    bool
	dumpConfig bool
	procs      int      // from +RTS -N<n>, 0 = unset
	ignoredRTS []string // RTS options without an effect here
}

// rtsOption takes one GHC runtime option: -N<n> sets procs, anything else
// is recorded as ignored.
func (c *cli) rtsOption(a, from string) error {
	if n, ok := ghcrts.Procs(a); ok {
		p, err := strconv.Atoi(n)
		if err != nil || p < 1 {
			return fmt.Errorf("%s %s: expecting -N<processors>", from, a)
		}
		c.procs = p
		return nil
	}
	c.ignoredRTS = append(c.ignoredRTS, a)
	return nil
}

// rtsFromEnv reads GHCRTS (as GHC does: before the command line, which
// wins); -N<n> sets GOMAXPROCS unless +RTS -N<n> did.
func (c *cli) rtsFromEnv(env string) error {
	var e cli
	for _, a := range ghcrts.Env(env) {
		if err := e.rtsOption(a, "GHCRTS"); err != nil {
			return err
		}
	}
	c.ignoredRTS = append(e.ignoredRTS, c.ignoredRTS...)
	if c.procs == 0 && e.procs > 0 {
		c.procs = e.procs
		runtime.GOMAXPROCS(c.procs)
	}
	return nil
}

// rtsNote says what became of GHC runtime options, for the log ("" when
// none were given).
func (c cli) rtsNote() string {
	var parts []string
	if c.procs > 0 {
		parts = append(parts, fmt.Sprintf("-N%d sets GOMAXPROCS=%d", c.procs, c.procs))
	}
	if len(c.ignoredRTS) > 0 {
		parts = append(parts, "ignored (no GHC runtime in this Go program): "+strings.Join(c.ignoredRTS, " "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "GHC RTS options: " + strings.Join(parts, "; ")
}

func parseCLI(args []string) (cli, error) {
	var c cli
	opts, rest := ghcrts.Split(args)
	for _, a := range opts {
		if err := c.rtsOption(a, "+RTS"); err != nil {
			return c, err
		}
	}
	for _, a := range rest {
		switch {
		case a == "-h" || a == "--help":
			c.help = true
		case a == "-v" || a == "--version":
			c.version = true
		case a == "--dump-config":
			c.dumpConfig = true
		case strings.HasPrefix(a, "-"):
			return c, fmt.Errorf("unknown option %s", a)
		case c.path != "":
			return c, fmt.Errorf("more than one config file: %s and %s", c.path, a)
		default:
			c.path = a
		}
	}
	if c.procs > 0 {
		runtime.GOMAXPROCS(c.procs)
	}
	return c, nil
}

const usage = `Usage: postgrest-mini [--help|--version|--dump-config] [+RTS -N<n> -RTS] [FILENAME]

A PostgREST-compatible subset for the lab. FILENAME is a PostgREST config
file; without it the configuration comes from PGRST_* environment variables.

Lab-only: PGRST_LAB_INJECT_CPU_US=N adds N microseconds of CPU work to every API
request (calibrated at start), a known slowdown for 'lab calibrate'.
`

// dumpConfig prints the settings as a config file, as PostgREST does:
// every key postgrest-mini reads (readKeys), with its catalogue default
// where the config does not set it, and the config's other keys.
func dumpConfig(w io.Writer, s configs.Settings) {
	all := map[string]string{}
	for _, k := range readKeys {
		if key, ok := postgrest.Lookup(k); ok {
			all[k] = key.Default
		}
	}
	maps.Copy(all, s)
	for _, k := range slices.Sorted(maps.Keys(all)) {
		fmt.Fprintf(w, "%s = %s\n", k, strconv.Quote(all[k]))
	}
}
