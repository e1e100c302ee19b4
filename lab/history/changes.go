package history

import "fmt"

// ChangeLines are the history's change points, one line each, as `lab
// track` prints them after every commit: "GETSingle / build / CPU per
// request: regression +18.2% (+15.1% .. +21.0%, p=0.001) in
// abc1234..def5678, beyond the runs' MDE ±3.0% (id 3f2a9c1b7d0e)", with
// its acknowledgement when it has one (AckNote).
func ChangeLines(h *History) []string {
	var out []string
	for gi := range h.Groups {
		for si := range h.Groups[gi].Series {
			s := &h.Groups[gi].Series[si]
			for ci := range s.Changes {
				c := &s.Changes[ci]
				out = append(out, fmt.Sprintf("%s: %+.1f%% (%+.1f%% .. %+.1f%%, p=%.3g) in %s..%s: %s (id %s)%s",
					s.Name(), c.Pct, c.LoPct, c.HiPct, c.P, c.Before.Entry.Label(h.By), c.After.Entry.Label(h.By), c.Verdict(), c.ID, c.AckNote()))
			}
		}
	}
	return out
}

// AckNote is "; acknowledged 2026-12-05: NOTE" for an acknowledged change
// point, "" for another (the note cleaned for a terminal).
func (c *Change) AckNote() string {
	if c.Ack == nil {
		return ""
	}
	return fmt.Sprintf("; acknowledged %s: %s", c.Ack.At.UTC().Format("2006-01-02"), clean(c.Ack.Note))
}
