package report

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
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
		run := statstest.Run(statstest.Spec{Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Trials: 3, Seed: 1,
			Variants: []statstest.Variant{{Name: "tcp", Baseline: true, Rate: 2000, P50Ms: 4}, {Name: "unix", Rate: 2100, P50Ms: 3.8}}})
		run.Dataset = c.ds
		md, html, term := renderAll(t, run)
		if c.want == "" {
			for name, out := range map[string]string{"terminal": term, "markdown": md, "html": html} {
				if strings.Contains(out, "checksum") || strings.Contains(out, ">Data<") || strings.Contains(out, "\ndata ") {
					t.Errorf("%s without a data set says one", name)
				}
			}
			continue
		}
		if !strings.Contains(term, "\ndata     "+c.want+"\n") {
			t.Errorf("terminal lacks %q:\n%s", c.want, term)
		}
		if !strings.Contains(md, "**Data**: ") || !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(md, "\\", "")), " "), c.want) {
			t.Errorf("markdown lacks %q (wrapped or not)", c.want)
		}
		if !strings.Contains(html, `<th class="l">Data</th><td class="l">`+c.want+`</td>`) {
			t.Errorf("html lacks %q", c.want)
		}
	}
}
