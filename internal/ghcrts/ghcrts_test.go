package ghcrts

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		args, opts, rest []string
	}{
		{[]string{"--flag", "+RTS", "-N2", "-A64m", "-RTS", "conf", "+RTS", "-qn1"}, []string{"-N2", "-A64m", "-qn1"}, []string{"--flag", "conf"}},
		// GHC's runtime: --RTS is dropped and ends option processing,
		// -- is passed on and ends it too.
		{[]string{"+RTS", "-N2", "--RTS", "+RTS", "-S/x"}, []string{"-N2"}, []string{"+RTS", "-S/x"}},
		{[]string{"conf", "--", "+RTS", "-S/x", "-RTS"}, nil, []string{"conf", "--", "+RTS", "-S/x", "-RTS"}},
		{[]string{"-RTS", "conf"}, nil, []string{"conf"}},
	} {
		opts, rest := Split(c.args)
		if !slices.Equal(opts, c.opts) || !slices.Equal(rest, c.rest) {
			t.Errorf("Split(%q): opts %q, rest %q; want %q, %q", c.args, opts, rest, c.opts, c.rest)
		}
	}
	if got := Env(" -N1 \t -I0 "); !slices.Equal(got, []string{"-N1", "-I0"}) {
		t.Errorf("Env: %q", got)
	}
	// GHC splits GHCRTS at ASCII white space only.
	if got := Env("-N1\u00a0-S/x"); !slices.Equal(got, []string{"-N1\u00a0-S/x"}) {
		t.Errorf("Env with U+00A0: %q", got)
	}
}

func TestProcs(t *testing.T) {
	for opt, want := range map[string]bool{"-N2": true, "-Nx": true, "-N": false, "-A64m": false} {
		if _, ok := Procs(opt); ok != want {
			t.Errorf("Procs(%q) = %v, want %v", opt, ok, want)
		}
	}
	if n, _ := Procs("-N12"); n != "12" {
		t.Errorf("Procs(-N12) n = %q", n)
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		opt  string
		ok   bool
		want string // in the error
	}{
		// What the bundled rts sweep and PostgREST's own -with-rtsopts use.
		{"-N", true, ""}, {"-N1", true, ""}, {"-N2", true, ""}, {"-N256", true, ""}, {"-I0", true, ""},
		{"-qg", true, ""}, {"-qn1", true, ""}, {"-A64m", true, ""}, {"-A1g", true, ""},
		{"-H", true, ""}, {"-H1G", true, ""}, {"-M64g", true, ""}, {"-n4m", true, ""}, {"-F1.5", true, ""},
		{"-qb", true, ""}, {"-qb1", true, ""}, {"-qa", true, ""}, {"-qm", true, ""}, {"-xn", true, ""},
		{"-c", true, ""}, {"-G3", true, ""}, {"-ki4k", true, ""}, {"-kc32k", true, ""}, {"-kb1k", true, ""},
		{"-K512m", true, ""}, {"-V0.01", true, ""}, {"-C", true, ""}, {"-C0.02", true, ""}, {"-maxN4", true, ""},
		{"-T", true, ""}, {"-O1m", true, ""},
		// Bounds.
		{"-N0", false, "from 1 to 256"}, {"-N257", false, "from 1 to 256"}, {"-N100000", false, "from 1 to 256"},
		{"-N2x", false, "whole number"}, {"-N+2", false, "whole number"}, {"-N-1", false, "whole number"},
		{"-qn0", false, "from 1"}, {"-qn1000", false, "from 1"}, {"-maxN", false, "whole number"},
		{"-A2g", false, "at most 1g"}, {"-A0", false, "above 0"}, {"-A", false, "wants a size"},
		{"-A999999999999g", false, "at most"}, {"-A1.5m", false, "wants a size"}, {"-M65g", false, "at most 64g"},
		{"-G11", false, "from 1 to 10"}, {"-qg11", false, "from 0 to 10"}, {"-F", false, "number"},
		// Options that write files, print, or meet the system: not in the vocabulary.
		{"-S", false, "not one the lab allows"}, {"-S/etc/passwd", false, "not one"}, {"-s/x", false, "not one"},
		{"-t/x", false, "not one"}, {"-h", false, "not one"}, {"-hT", false, "not one"}, {"-p", false, "not one"},
		{"-l", false, "not one"}, {"-ol/x", false, "not one"}, {"-po/x", false, "not one"}, {"-r/x", false, "not one"},
		{"--eventlog-flush-interval=1", false, "not one"}, {"-?", false, "not one"}, {"--info", false, "not one"},
		{"--install-signal-handlers=no", false, "not one"}, {"-xb0x1000", false, "not one"}, {"-i0.1", false, "not one"},
		{"-Mgrace=1m", false, "wants a size"}, {"-AL64m", false, "wants a size"}, {"-Fd4", false, "number"},
		{"-cx", false, "takes no value"}, {"-Tx", false, "takes no value"}, {"-qi1", false, "not one"},
		{"-k64k", false, "not one"}, {"+RTS", false, "not one"}, {"-RTS", false, "not one"}, {"", false, "not one"},
	} {
		err := Check(c.opt)
		if c.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Check(%q) = %v, want ok=%v with %q", c.opt, err, c.ok, c.want)
		}
	}
}

func TestCheckArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		i    int // the refused argument, -1 = accepted
		want string
	}{
		{nil, -1, ""},
		{[]string{"+RTS", "-N2", "-A64m", "-RTS"}, -1, ""},
		{[]string{"+RTS", "-N2", "-qn1", "-RTS", "+RTS", "-I0", "-RTS"}, -1, ""},
		// Outside +RTS an argument is the program's: GHC does not read it.
		{[]string{"-S/x", "--verbose"}, -1, ""},
		{[]string{"+RTS", "-S/x", "-RTS"}, 1, "not one the lab allows"},
		{[]string{"+RTS", "-N2", "-S/x"}, 2, "not one the lab allows"},
		{[]string{"-RTS", "+RTS", "-S/x"}, 2, "not one the lab allows"},
		{[]string{"+RTS", "-N100000", "-RTS"}, 1, "from 1 to 256"},
		{[]string{"+RTS", "-N2"}, 1, "without a closing -RTS"},
		{[]string{"+RTS"}, 0, "without a closing -RTS"},
		{[]string{"--RTS"}, 0, "ends GHC's +RTS processing"},
		{[]string{"+RTS", "-N2", "-RTS", "--"}, 3, "ends GHC's +RTS processing"},
		// Conservative: what follows --RTS is never reached, --RTS refused first.
		{[]string{"+RTS", "--RTS", "-S/x"}, 1, "ends GHC's"},
	} {
		i, err := CheckArgs(c.args)
		if (c.i < 0) != (err == nil) || (err != nil && (i != c.i || !strings.Contains(err.Error(), c.want))) {
			t.Errorf("CheckArgs(%q) = %d %v, want index %d with %q", c.args, i, err, c.i, c.want)
		}
	}
}

func TestCheckEnv(t *testing.T) {
	for v, ok := range map[string]bool{
		"":                             true,
		"-N2 -A64m -qg -I0":            true,
		"-N -I0 -qg":                   true, // PostgREST's -with-rtsopts
		"-S/etc/passwd":                false,
		"-N2 -S/x":                     false,
		"-N100000":                     false,
		"-N2\u00a0-S/x":                false, // one word to GHC, and not a count
		"+RTS -N2 -RTS":                false,
		"-N2\t-qn1\n":                  true, // white space as GHC splits it (Text refuses the newline before)
		"--install-signal-handlers=no": false,
	} {
		if err := CheckEnv(v); ok != (err == nil) {
			t.Errorf("CheckEnv(%q) = %v, want ok=%v", v, err, ok)
		}
	}
}

// The vocabulary holds no option that writes a file: none of GHC's
// file-writing options is a name in it, nor starts with one.
func TestVocabularyWritesNoFile(t *testing.T) {
	for _, w := range []string{"-S", "-s", "-t", "-h", "-p", "-P", "-l", "-o", "-r", "-D", "-i", "-e", "-x", "-Z", "-B", "-m", "-w", "-?", "--"} {
		for _, p := range prefixes {
			if strings.HasPrefix(w, p) || p == w {
				t.Errorf("vocabulary name %q covers %q", p, w)
			}
		}
	}
}
