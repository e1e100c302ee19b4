package trial

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// The Loader describes a scenario as it sends it: the built-in 2020
// scenarios with their fixed ids and a body the same in every request, the
// random-id ones with their {rand} field as written, a POST body's size in
// a run's first request, the ids each filter asks (fixed or the range
// drawn), and a targets file by its first lines.
func TestDescribeScenarioSaysWhatIsSent(t *testing.T) {
	l := &Loader{}
	for name, want := range map[string]lab.AskedRequest{
		"GETSingleEmbed2020": {Method: "GET", Path: "/album?select=*,track(*,genre(*))&artist_id=eq.127", IDs: []lab.IDRange{{Column: "artist_id", Lo: 127, Hi: 127}}},
		"GETSingleEmbed":     {Method: "GET", Path: "/album?select=*,track(*,genre(*))&artist_id=eq.{rand 1 347}", IDs: []lab.IDRange{{Column: "artist_id", Lo: 1, Hi: 347}}},
		"GETSingle":          {Method: "GET", Path: "/artist?select=*&artist_id=eq.{rand 1 275}", IDs: []lab.IDRange{{Column: "artist_id", Lo: 1, Hi: 275}}},
		"RPCSimple":          {Method: "GET", Path: "/rpc/add_them?a=1&b=2&c=3&d=4&e=5"},
		"POSTBulk2020":       {Method: "POST", Path: "/employee", BodyBytes: 6721},
		"POSTBulk":           {Method: "POST", Path: "/employee", BodyBytes: 6751, BodyVaries: true},
	} {
		info, err := l.DescribeScenario(lab.LoadSpec{Scenario: name})
		if err != nil {
			t.Fatal(err)
		}
		if len(info.Requests) != 1 || !reflect.DeepEqual(info.Requests[0], want) || info.Total != 0 {
			t.Errorf("%s: %+v, want %+v", name, info, want)
		}
	}
	if _, err := l.DescribeScenario(lab.LoadSpec{Scenario: "nope"}); err == nil {
		t.Error("an unknown scenario described")
	}

	dir := t.TempDir()
	var lines []string
	for i := range lab.MaxDescribedRequests + 2 {
		lines = append(lines, "GET http://postgrest/items?id=eq."+string(rune('a'+i)))
	}
	targets := filepath.Join(dir, "targets.http")
	if err := os.WriteFile(targets, []byte(strings.Join(lines, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := l.DescribeScenario(lab.LoadSpec{Scenario: "targets", Custom: &lab.Scenario{Name: "targets", Targets: targets}})
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Requests) != lab.MaxDescribedRequests || info.Total != len(lines) || info.Requests[1].Path != "/items?id=eq.b" || info.Requests[1].IDs != nil {
		t.Errorf("targets file: %+v", info)
	}
	info, err = l.DescribeScenario(lab.LoadSpec{Scenario: "mine", Custom: &lab.Scenario{Name: "mine", Method: "PATCH", Path: "/a?id=eq.{rand 1 9}", Body: `{"n":{seq 7}}`}})
	want := lab.AskedRequest{Method: "PATCH", Path: "/a?id=eq.{rand 1 9}", BodyBytes: len(`{"n":7}`), BodyVaries: true, IDs: []lab.IDRange{{Column: "id", Lo: 1, Hi: 9}}}
	if err != nil || len(info.Requests) != 1 || !reflect.DeepEqual(info.Requests[0], want) {
		t.Errorf("custom: %+v %v", info, err)
	}
}
