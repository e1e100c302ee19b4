package report_test

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// The setup of every report says, one line per scenario, what the run
// asked (the path with its fixed or drawn ids, a body's size) and what the
// answers weighed: the run's bytes received over its answers, for the
// trials that count.
func TestSetupSaysWhatEachScenarioAskedAndWeighed(t *testing.T) {
	run := fixtureRun("closed")
	run.Experiment.Scenarios = []string{"GETSingle", "GETSingleEmbed"}
	var sums [2][2]int64 // per scenario: bytes, requests
	for i := range run.Trials {
		tr := &run.Trials[i]
		k := 0
		if tr.Scenario == "GETSingleEmbed" {
			k = 1
			tr.Load.BytesIn = tr.Load.Requests*13_184 + int64(tr.Rep)*997
		}
		if tr.Error == "" {
			sums[k][0] += tr.Load.BytesIn
			sums[k][1] += tr.Load.Requests
		}
	}
	run.Scenarios = []lab.ScenarioInfo{
		{Name: "GETSingle", Requests: []lab.AskedRequest{{Method: "GET", Path: "/artist?select=*&artist_id=eq.{rand 1 275}"}}},
		{Name: "GETSingleEmbed", Requests: []lab.AskedRequest{{Method: "GET", Path: "/album?select=*,track(*,genre(*))&artist_id=eq.127"}},
			Total: 9},
	}
	for i := range run.Scenarios {
		sc := &run.Scenarios[i]
		sc.AnswerBytes, sc.Answers = lab.AnswerWeight(run.Trials, sc.Name)
		if want := float64(sums[i][0]) / float64(sums[i][1]); sc.AnswerBytes != want || sc.Answers != sums[i][1] {
			t.Fatalf("%s: weight %v over %d, want %v over %d", sc.Name, sc.AnswerBytes, sc.Answers, want, sums[i][1])
		}
	}
	embed := format.Bytes(float64(sums[1][0]) / float64(sums[1][1]))
	if embed != "13.2 kB" {
		t.Fatalf("the embed's answers format as %s; the test means about 13.2 kB", embed)
	}
	single := format.Bytes(float64(sums[0][0]) / float64(sums[0][1]))
	v := stats.Compare(run, 0.05)

	var term bytes.Buffer
	report.Terminal(&term, run, v)
	for _, want := range []string{
		"asked    GETSingle: GET /artist?select=*&artist_id=eq.{rand 1 275}, answers " + single + " on average (headers included)\n",
		"asked    GETSingleEmbed: GET /album?select=*,track(*,genre(*))&artist_id=eq.127, … (9 requests in all), answers " + embed + " on average (headers included)\n",
	} {
		if !strings.Contains(term.String(), want) {
			t.Errorf("terminal lacks %q:\n%s", want, term.String())
		}
	}

	var md bytes.Buffer
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	unwrapped := strings.ReplaceAll(md.String(), "\n  ", " ") // an item's wrapped lines
	if want := "- **Asked**: GETSingleEmbed: `GET /album?select=*,track(*,genre(*))&artist_id=eq.127`, … (9 requests in all), answers " +
		embed + " on average (headers included)\n"; !strings.Contains(unwrapped, want) {
		t.Errorf("report.md lacks %q:\n%s", want, md.String())
	}

	var h bytes.Buffer
	if err := report.HTML(&h, run, v); err != nil {
		t.Fatal(err)
	}
	if want := `<th class="l">Asked</th><td class="l">` + html.EscapeString("GETSingleEmbed: GET /album?select=*,track(*,genre(*))&artist_id=eq.127, … (9 requests in all), answers "+embed+" on average (headers included)") + "</td>"; !strings.Contains(h.String(), want) {
		t.Errorf("report.html lacks %q", want)
	}

	// A POST's body is given by its size; a record without the field
	// has no such line.
	run.Scenarios = []lab.ScenarioInfo{{Name: "POSTBulk2020", Requests: []lab.AskedRequest{{Method: "POST", Path: "/employee", BodyBytes: 6721}}}}
	term.Reset()
	report.Terminal(&term, run, v)
	if !strings.Contains(term.String(), "asked    POSTBulk2020: POST /employee, body 6.72 kB\n") {
		t.Errorf("terminal:\n%s", term.String())
	}
	run.Scenarios = nil
	term.Reset()
	report.Terminal(&term, run, v)
	if strings.Contains(term.String(), "asked ") {
		t.Errorf("a record without scenarios' requests has an asked line:\n%s", term.String())
	}
}
