package history

import "fmt"

// ChangeLines are the history's change points, one line each, as `lab
// track` prints them after every commit: "GETSingle / build / CPU per
// request: regression +18.2% (+15.1% .. +21.0%, p=0.001) in
// abc1234..def5678, beyond the runs' MDE ±3.0%".
func ChangeLines(h *History) []string {
	var out []string
	for gi := range h.Groups {
		for si := range h.Groups[gi].Series {
			s := &h.Groups[gi].Series[si]
			for ci := range s.Changes {
				c := &s.Changes[ci]
				out = append(out, fmt.Sprintf("%s: %+.1f%% (%+.1f%% .. %+.1f%%, p=%.3g) in %s..%s: %s",
					s.Name(), c.Pct, c.LoPct, c.HiPct, c.P, c.Before.Entry.Label(h.By), c.After.Entry.Label(h.By), c.Verdict()))
			}
		}
	}
	return out
}
