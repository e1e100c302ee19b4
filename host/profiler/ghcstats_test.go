package profiler

import (
	"os"
	"path/filepath"
	"testing"
)

const rtsHeader = `'/usr/bin/postgrest' +RTS '-N' '-S/tmp/x' 
    Alloc    Copied     Live     GC     GC      TOT      TOT  Page Flts
    bytes     bytes     bytes   user   elap     user     elap
`

func TestReadGHCStatsWindow(t *testing.T) {
	before := "   1000000     1000    50000  0.001  0.001    1.000    2.000    0    0  (Gen:  0)\n"
	window := "   4000000     2000    60000  0.002  0.002    1.200    2.100    0    0  (Gen:  0)\n" +
		"   4000000     3000    90000  0.010  0.010    1.500    2.200    0    0  (Gen:  1)\n" +
		"   2000000     3000    70000  0.003  0.003    1.600    2.300    0    0  (Gen:  0)\n"
	partial := "   9999999     1000"
	path := filepath.Join(t.TempDir(), "rts.log")
	if err := os.WriteFile(path, []byte(rtsHeader+before+window+partial), 0o644); err != nil {
		t.Fatal(err)
	}
	from := int64(len(rtsHeader + before))
	to := FileSize(path)
	w, err := ReadGHCStats(path, from, to)
	if err != nil {
		t.Fatal(err)
	}
	want := GHCWindow{GCs: 3, MajorGCs: 1, BytesAllocated: 10000000, GCCPUSeconds: 0.015, CPUSeconds: 0.6, MaxLiveBytes: 90000}
	if w.GCs != want.GCs || w.MajorGCs != want.MajorGCs || w.BytesAllocated != want.BytesAllocated || w.MaxLiveBytes != want.MaxLiveBytes ||
		!near(w.GCCPUSeconds, want.GCCPUSeconds) || !near(w.CPUSeconds, want.CPUSeconds) {
		t.Errorf("got %+v, want %+v", w, want)
	}
	if _, err := ReadGHCStats(path, to, from); err == nil {
		t.Error("a shrunk file is not an error")
	}
	empty, err := ReadGHCStats(path, to, to)
	if err != nil || empty.GCs != 0 {
		t.Errorf("empty window: %+v, %v", empty, err)
	}
}

func TestParseGCLineRejects(t *testing.T) {
	for _, s := range []string{"", "    Alloc    Copied     Live     GC     GC      TOT      TOT  Page Flts",
		"     1904                      0.000  0.000", "  -5 1 1 0.1 0.1 1 1 0 0 (Gen: 0)", "a b c d e f g h i (Gen: 0)"} {
		if l, ok := parseGCLine(s); ok {
			t.Errorf("parseGCLine(%q) = %+v", s, l)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
