package lab

import (
	"slices"
	"strings"
	"testing"
)

// Lines are named after method and path, without the query, in a
// scenario name's characters; a repeat or a taken name gets a suffix, a
// name that would be a built-in scenario or empty gets lineN.
func TestLineScenarioNames(t *testing.T) {
	lines := []TargetLine{
		{"GET", "/artist?select=*&artist_id=eq.3"},
		{"GET", "/album?select=*,track(*,genre(*))"},
		{"HEAD", "/track?album_id=eq.3"},
		{"POST", "/employee"},
		{"GET", "/rpc/ret_artists?select=*"},
		{"GET", "/artist?artist_id=eq.4"},
		{"GET", "/"},
		{"GET", "/ünï/côde"},
	}
	got := LineScenarioNames(lines, map[string]bool{"POST-employee": true})
	want := []string{"GET-artist", "GET-album", "HEAD-track", "POST-employee-2", "GET-rpc-ret_artists", "GET-artist-2", "GET", "GET-n-c-de"}
	if !slices.Equal(got, want) {
		t.Errorf("names\n got %q\nwant %q", got, want)
	}
	for _, n := range got {
		if !ValidName(n) {
			t.Errorf("%q is not a valid scenario name", n)
		}
	}
	if got := LineScenarioNames([]TargetLine{{"", "/"}}, nil); got[0] != "line1" {
		t.Errorf("an empty slug: %q, want line1", got)
	}
}

// SplitTargets puts one scenario per line where "targets" was, each
// replaying its line of the same file, and refuses an experiment without
// a targets file or without the targets scenario.
func TestSplitTargets(t *testing.T) {
	e := &Experiment{Name: "x", Scenarios: []string{"GETSingle"}}
	e.UseTargets("/t/targets.http", false)
	e.Scenarios = append(e.Scenarios, "POSTSingle")
	if err := e.SplitTargets([]TargetLine{{"GET", "/a"}, {"POST", "/b"}}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"GETSingle", "GET-a", "POST-b", "POSTSingle"}; !slices.Equal(e.Scenarios, want) {
		t.Errorf("scenarios %v, want %v", e.Scenarios, want)
	}
	if e.Trials.Alpha != DefaultAlpha/2 {
		t.Errorf("alpha %v, want %v / 2 lines", e.Trials.Alpha, DefaultAlpha)
	}
	if len(e.Custom) != 2 || e.Custom[0].Line != 1 || e.Custom[1].Line != 2 || e.Custom[1].Targets != "/t/targets.http" || !e.PerLine {
		t.Errorf("custom %+v, per_line %v", e.Custom, e.PerLine)
	}
	if err := e.SplitTargets([]TargetLine{{"GET", "/a"}}); err == nil || !strings.Contains(err.Error(), `"targets" is not among`) {
		t.Errorf("a second split: %v", err)
	}
	if err := (&Experiment{}).SplitTargets([]TargetLine{{"GET", "/a"}}); err == nil || !strings.Contains(err.Error(), "no targets file") {
		t.Errorf("no targets file: %v", err)
	}
	e = &Experiment{}
	e.UseTargets("/t/empty.http", true)
	if err := e.SplitTargets(nil); err == nil || !strings.Contains(err.Error(), "holds no request") {
		t.Errorf("an empty file: %v", err)
	}
}
