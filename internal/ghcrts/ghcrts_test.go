package ghcrts

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	opts, rest := Split([]string{"--flag", "+RTS", "-N2", "-A64m", "-RTS", "conf", "+RTS", "-qn1"})
	if !slices.Equal(opts, []string{"-N2", "-A64m", "-qn1"}) || !slices.Equal(rest, []string{"--flag", "conf"}) {
		t.Errorf("Split: opts %q, rest %q", opts, rest)
	}
	if got := Env(" -N1  -I0 "); !slices.Equal(got, []string{"-N1", "-I0"}) {
		t.Errorf("Env: %q", got)
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
