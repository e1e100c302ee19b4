package sweep

import (
	"strconv"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// poolTable is a db-pool sweep's pool sizing as a header and rows, the
// last cell of a row marking the recommended size.
func poolTable(ps *stats.PoolSizing) (header []string, rows [][]string) {
	header = []string{"db-pool", "trials", "504s", "acquisition timeouts", "waiting, max", "fast p99 (ms)", ""}
	for _, p := range ps.Points {
		timeouts, waiting := "—", "—"
		if p.HasPool {
			timeouts, waiting = strconv.FormatInt(p.Timeouts, 10), strconv.Itoa(p.MaxWaiting)
		}
		p99 := "—"
		if p.FastP99 > 0 {
			p99 = format.Num(p.FastP99, 3)
		}
		mark := ""
		if p.Variant == ps.Recommended {
			mark = "▶ recommended"
		}
		rows = append(rows, []string{p.Size, strconv.Itoa(p.Trials), strconv.FormatInt(p.Gateway, 10), timeouts, waiting, p99, mark})
	}
	return header, rows
}

// poolNote says which requests are the fast ones and where the bound comes
// from.
func poolNote(ps *stats.PoolSizing) string {
	s := "Pool sizing: "
	if ps.Slow != "" {
		s += "the slow requests are " + ps.Slow + "; "
	}
	s += "fast: "
	for i, f := range ps.Fast {
		if i > 0 {
			s += ", "
		}
		s += f
	}
	return s + ". " + ps.Sentence
}
