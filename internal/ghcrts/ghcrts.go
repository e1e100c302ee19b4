// Package ghcrts owns what GHC runtime options mean on postgrest-mini, the
// lab's reference server: a Go program without a GHC runtime. It accepts
// them where PostgREST does (+RTS ... -RTS on the command line, GHCRTS in
// the environment) so the lab can pass both the same command line; -N<n>
// sets GOMAXPROCS and every other option is ignored. cmd/postgrest-mini
// acts on them; systemd/host notes what they do with a variant.
package ghcrts

import "strings"

// Split separates a command line into the runtime options (between +RTS
// and -RTS, or +RTS and the end) and the other arguments, each in order.
func Split(args []string) (opts, rest []string) {
	in := false
	for _, a := range args {
		switch {
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

// Env is the runtime options of a GHCRTS value.
func Env(ghcrts string) []string { return strings.Fields(ghcrts) }

// Procs reports whether opt is -N<n>, the one option postgrest-mini
// takes (it sets GOMAXPROCS), and n as given (not yet checked to be a
// count).
func Procs(opt string) (n string, ok bool) {
	n, ok = strings.CutPrefix(opt, "-N")
	return n, ok && n != ""
}
