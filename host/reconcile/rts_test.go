package reconcile

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func TestRTSNote(t *testing.T) {
	v := lab.Variant{Args: []string{"+RTS", "-N2", "-qn1", "-RTS"}, Env: map[string]string{"GHCRTS": "-A64m"}}
	got := rtsNote(true, v)
	want := "postgrest-mini has no GHC runtime: -N2 sets GOMAXPROCS; ignored: -A64m -qn1"
	if len(got) != 1 || got[0].Where != "note" || got[0].To != want {
		t.Errorf("reference: %+v, want %q", got, want)
	}
	if got := rtsNote(false, v); got != nil {
		t.Errorf("real PostgREST: %+v, want no note", got)
	}
	if got := rtsNote(true, lab.Variant{Args: []string{"--flag"}}); got != nil {
		t.Errorf("no RTS options: %+v", got)
	}
}
