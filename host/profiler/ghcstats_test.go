package profiler

import (
	"fmt"
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
	// The one major collection: its live heap, 0.2 s of elapsed time after
	// the last collection before the window.
	if len(w.Live) != 1 || w.Live[0].Bytes != 90000 || !near(w.Live[0].Seconds, 0.2) {
		t.Errorf("live series %+v, want one point of 90000 bytes at 0.2 s", w.Live)
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

// The live series keeps the largest live heap of each second: major
// collections more often than once a second make one point each second.
func TestReadGHCStatsLiveSeries(t *testing.T) {
	var b []byte
	b = append(b, rtsHeader...)
	b = append(b, "   1000000     1000    50000  0.001  0.001    1.000   10.000    0    0  (Gen:  0)\n"...)
	from := int64(len(b))
	for i := range 40 { // every 0.25 s, live growing by 1000 bytes each
		b = fmt.Appendf(b, "   1000000     1000 %8d  0.001  0.001    1.000 %8.3f    0    0  (Gen:  1)\n", 100000+1000*i, 10.25+0.25*float64(i))
	}
	path := filepath.Join(t.TempDir(), "rts.log")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ReadGHCStats(path, from, FileSize(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Live) != 11 || w.Live[0].Bytes != 102000 || w.Live[10].Bytes != 139000 {
		t.Fatalf("live series %d points %+v, want 11 (one a second, the largest)", len(w.Live), w.Live)
	}
	for i := 1; i < len(w.Live); i++ {
		if int(w.Live[i].Seconds) == int(w.Live[i-1].Seconds) {
			t.Errorf("two points in second %d", int(w.Live[i].Seconds))
		}
	}
}
