// Package ghcrts owns what GHC runtime options mean to the lab: how a GHC
// program (PostgREST) reads them, from +RTS ... -RTS on its command line
// and from GHCRTS in its environment (Split, Env); which of them a variant
// may give (Check, CheckArgs, CheckEnv: the one rule for both places); and
// what they do on postgrest-mini, the lab's reference server, a Go program
// without a GHC runtime (Procs: -N<n> sets GOMAXPROCS, every other option
// is ignored). cmd/postgrest-mini acts on them, lab/capability checks a
// variant's with them, host/reconcile notes what they do with a variant.
package ghcrts

import (
	"strings"
)

// Split separates a command line into the runtime options and the other
// arguments, each in order, as GHC's runtime does: options are the
// arguments between +RTS and -RTS (or +RTS and the end); "--RTS" is
// dropped and passes every later argument to the program, and so does
// "--", which is itself passed on.
func Split(args []string) (opts, rest []string) {
	in := false
	for i, a := range args {
		switch {
		case a == "--RTS":
			return opts, append(rest, args[i+1:]...)
		case a == "--":
			return opts, append(rest, args[i:]...)
		case a == "+RTS":
			in = true
		case a == "-RTS":
			in = false
		case in:
			opts = append(opts, a)
		default:
			rest = append(rest, a)
		}
	}
	return opts, rest
}

// Env is the runtime options of a GHCRTS value: its words, split at ASCII
// white space as GHC's runtime splits them (it knows no quoting).
func Env(ghcrts string) []string {
	return strings.FieldsFunc(ghcrts, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			return true
		}
		return false
	})
}

// Procs reports whether opt is -N<n>, the one option postgrest-mini
// takes (it sets GOMAXPROCS), and n as given (not yet checked to be a
// count).
func Procs(opt string) (n string, ok bool) {
	n, ok = strings.CutPrefix(opt, "-N")
	return n, ok && n != ""
}
