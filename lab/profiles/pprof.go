package profiles

import (
	"io"
	"time"

	"github.com/google/pprof/profile"
)

// WritePprof writes a variant's merged stacks as a gzipped pprof profile
// (`go tool pprof -top FILE`): sample types samples/count and cpu/
// nanoseconds, one function per distinct (service, frame) pair.
func WritePprof(w io.Writer, v Variant) error {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     v.PeriodNs,
		TimeNanos:  time.Now().UnixNano(),
		Comments:   []string{"pgrst-lab: perf record -e cpu-clock -g, variant " + v.Name},
	}
	locs := map[string]*profile.Location{}
	loc := func(name string) *profile.Location {
		if l, ok := locs[name]; ok {
			return l
		}
		id := uint64(len(locs) + 1)
		fn := &profile.Function{ID: id, Name: name, SystemName: name}
		l := &profile.Location{ID: id, Line: []profile.Line{{Function: fn}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, l)
		locs[name] = l
		return l
	}
	for _, s := range v.Stacks {
		ls := make([]*profile.Location, 0, len(s.Frames))
		for i := len(s.Frames) - 1; i >= 0; i-- { // pprof: leaf first
			ls = append(ls, loc(s.Frames[i]))
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: ls, Value: []int64{s.Count, s.Count * v.PeriodNs}})
	}
	if err := p.CheckValid(); err != nil {
		return err
	}
	return p.Write(w)
}
