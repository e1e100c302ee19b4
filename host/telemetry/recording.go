package telemetry

import (
	"slices"
	"time"
)

// Recording is what a Sampler recorded between Start and Stop.
type Recording struct {
	Interval   time.Duration
	Budget     float64 // share of one core allowed for per-process reads (0: none)
	Start, End time.Time
	Series     []Series // one per source, in the order given
	Machine    []MachineSample
	MachineErr string // last error reading machine figures, if any
	Marks      []Mark
}

// Window is a labelled span of a recording.
type Window struct {
	Label    string
	From, To time.Time
}

func (r Recording) clone() Recording {
	c := r
	c.Series = make([]Series, len(r.Series))
	for i, s := range r.Series {
		s.Samples = slices.Clone(s.Samples)
		c.Series[i] = s
	}
	c.Machine = slices.Clone(r.Machine)
	c.Marks = slices.Clone(r.Marks)
	return c
}

// Source returns the series of the named source.
func (r Recording) Source(name string) (Series, bool) {
	for _, s := range r.Series {
		if s.Source.Name == name {
			return s, true
		}
	}
	return Series{}, false
}

// Window returns the span from the last mark with this label to the next
// mark (or the end of the recording).
func (r Recording) Window(label string) (Window, bool) {
	for i := len(r.Marks) - 1; i >= 0; i-- {
		if r.Marks[i].Label != label {
			continue
		}
		w := Window{Label: label, From: r.Marks[i].T, To: r.End}
		if i+1 < len(r.Marks) {
			w.To = r.Marks[i+1].T
		}
		if w.To.IsZero() {
			w.To = time.Now()
		}
		return w, true
	}
	return Window{}, false
}

// Summary summarises every source between from and to, by source name.
func (r Recording) Summary(from, to time.Time) map[string]Usage {
	out := make(map[string]Usage, len(r.Series))
	for _, s := range r.Series {
		out[s.Source.Name] = s.Summary(from, to)
	}
	return out
}

// SummaryOf summarises every source over the window of a mark; nil when
// there is no such mark.
func (r Recording) SummaryOf(label string) map[string]Usage {
	w, ok := r.Window(label)
	if !ok {
		return nil
	}
	return r.Summary(w.From, w.To)
}
