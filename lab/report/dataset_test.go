package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Every report of a run states its data set in one line: the kind (the
// generated set's seed, the real Chinook's files, an unmarked database),
// the checksum's first 8 digits, the rows of the tables the scenarios read
// and the generated schemas; a record without one shows no such line.
func TestReportsStateTheDataSet(t *testing.T) {
	rows := map[string]int64{"artist": 275, "album": 347, "track": 3503, "genre": 25}
	for _, c := range []struct {
		ds   *lab.Dataset
		want string
	}{
		{&lab.Dataset{Kind: lab.DatasetFiles, Files: []string{"chinook.sql", "bench.sql"}, Rows: rows, Checksum: "abcd1234ffffffffffffffffffffffff"},
			"real Chinook from chinook.sql, bench.sql (checksum abcd1234; artist 275, album 347, track 3503 rows)"},
		{&lab.Dataset{Kind: lab.DatasetGenerated, Seed: 7, Rows: rows, Schemas: map[string]int{"gen1000": 1000}, Checksum: "0123456789abcdef0123456789abcdef"},
			"generated set seed 7 (checksum 01234567; artist 275, album 347, track 3503 rows; schema gen1000 of 1000 tables)"},
		{&lab.Dataset{Kind: lab.DatasetUnknown, Checksum: "d41d8cd98f00b204e9800998ecf8427e"},
			"a database no lab fixture marked (checksum d41d8cd9)"},
		{nil, ""},
	} {
		run := fixtureRun(lab.ModelOpen)
		run.Dataset = c.ds
		v := stats.Compare(run, 0)
		var term, md, html bytes.Buffer
		report.Terminal(&term, run, v)
		if err := report.Markdown(&md, run, v); err != nil {
			t.Fatal(err)
		}
		if err := report.HTML(&html, run, v); err != nil {
			t.Fatal(err)
		}
		if c.want == "" {
			for name, out := range map[string]string{"terminal": term.String(), "markdown": md.String(), "html": html.String()} {
				if strings.Contains(out, "checksum") || strings.Contains(out, ">Data<") || strings.Contains(out, "\ndata ") {
					t.Errorf("%s without a data set says one", name)
				}
			}
			continue
		}
		if !strings.Contains(term.String(), "\ndata     "+c.want+"\n") {
			t.Errorf("terminal lacks %q:\n%s", c.want, term.String())
		}
		if !strings.Contains(md.String(), "**Data**: ") || !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(md.String(), "\\", "")), " "), c.want) {
			t.Errorf("markdown lacks %q (wrapped or not)", c.want)
		}
		if !strings.Contains(html.String(), `<th class="l">Data</th><td class="l">`+c.want+`</td>`) {
			t.Errorf("html lacks %q", c.want)
		}
	}
}
