package main

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/configs"
)

// cli is the parsed command line, PostgREST-style:
//
//	postgrest-mini [--help|--version|--dump-config] [+RTS ... -RTS] [FILENAME]
//
// GHC runtime options are accepted so the lab can pass the same command
// line as to postgrest; -N<n> sets GOMAXPROCS, the others are ignored.
type cli struct {
	path       string // "" = configure from the environment only
	help       bool
	version    bool
	dumpConfig bool
	procs      int // from +RTS -N<n>, 0 = unset
}

func parseCLI(args []string) (cli, error) {
	var c cli
	inRTS := false
	for _, a := range args {
		switch {
		case a == "+RTS":
			inRTS = true
		case a == "-RTS":
			inRTS = false
		case inRTS:
			if n, ok := strings.CutPrefix(a, "-N"); ok && n != "" {
				p, err := strconv.Atoi(n)
				if err != nil || p < 1 {
					return c, fmt.Errorf("+RTS %s: expecting -N<processors>", a)
				}
				c.procs = p
			}
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

// dumpConfig prints the resolved settings as a config file.
func dumpConfig(w io.Writer, s configs.Settings) {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s = %s\n", k, strconv.Quote(s[k]))
	}
}
