package loadgen

import (
	"bytes"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// PhaseNames are the Server-Timing phases PostgREST 13 reports
// (server-timing-enabled = true), in its order:
//
//	Server-Timing: jwt;dur=0.0, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0
var PhaseNames = [NumPhases]string{"jwt", "parse", "plan", "transaction", "response"}

// NumPhases is len(PhaseNames).
const NumPhases = 5

// phaseHistHigh bounds a phase's duration, in µs (60 s).
const phaseHistHigh = 60_000_000

// Phase is one Server-Timing phase over the measured answers that carried
// the header. PostgREST writes durations in ms with one decimal, so values
// are multiples of 100 µs; Mean is the mean of those rounded values.
type Phase struct {
	Name                string
	Min, Mean, P50, P99 time.Duration
}

// phaseHists are a shard's per-phase histograms, in µs, and the per-request
// sum of the phases (the server's own time for the request).
type phaseHists struct {
	ph    [NumPhases]*hdrhistogram.Histogram
	total *hdrhistogram.Histogram
	n     int64
}

func newPhaseHists() *phaseHists {
	p := &phaseHists{total: hdrhistogram.New(1, phaseHistHigh, 3)}
	for i := range p.ph {
		p.ph[i] = hdrhistogram.New(1, phaseHistHigh, 3)
	}
	return p
}

func (p *phaseHists) record(us *[NumPhases]int64) {
	var sum int64
	for i, v := range us {
		p.ph[i].RecordValue(min(v, phaseHistHigh))
		sum += v
	}
	p.total.RecordValue(min(sum, phaseHistHigh))
	p.n++
}

func (p *phaseHists) merge(o *phaseHists) {
	for i := range p.ph {
		p.ph[i].Merge(o.ph[i])
	}
	p.total.Merge(o.total)
	p.n += o.n
}

func phaseOf(name string, h *hdrhistogram.Histogram) Phase {
	us := func(v float64) time.Duration { return time.Duration(v * float64(time.Microsecond)) }
	return Phase{Name: name, Min: us(float64(h.Min())), Mean: us(h.Mean()), P50: us(float64(h.ValueAtQuantile(50))), P99: us(float64(h.ValueAtQuantile(99)))}
}

// parseServerTiming reads a Server-Timing value into µs per phase, without
// allocating. It reports whether every phase was found; unknown metrics
// are skipped, a missing or malformed dur makes the header not count.
func parseServerTiming(v []byte, us *[NumPhases]int64) bool {
	var found [NumPhases]bool
	for len(v) > 0 {
		var entry []byte
		if i := bytes.IndexByte(v, ','); i >= 0 {
			entry, v = v[:i], v[i+1:]
		} else {
			entry, v = v, nil
		}
		name, params, _ := bytes.Cut(bytes.TrimSpace(entry), []byte{';'})
		idx := -1
		for i, n := range PhaseNames {
			if string(name) == n { // no allocation: the compiler compares in place
				idx = i
				break
			}
		}
		if idx < 0 {
			continue
		}
		d, ok := durParam(params)
		if !ok {
			return false
		}
		us[idx], found[idx] = d, true
	}
	return found == [NumPhases]bool{true, true, true, true, true}
}

// durParam finds dur=MS among ;-separated parameters and returns it in µs.
func durParam(params []byte) (int64, bool) {
	for len(params) > 0 {
		var p []byte
		if i := bytes.IndexByte(params, ';'); i >= 0 {
			p, params = params[:i], params[i+1:]
		} else {
			p, params = params, nil
		}
		if val, ok := bytes.CutPrefix(bytes.TrimSpace(p), []byte("dur=")); ok {
			return parseMs(val)
		}
	}
	return 0, false
}

// parseMs parses a non-negative decimal number of milliseconds to µs
// (digits after the third decimal are dropped).
func parseMs(b []byte) (int64, bool) {
	var whole, frac int64
	scale := int64(1000)
	seenDot, digits := false, 0
	for _, c := range b {
		switch {
		case c == '.' && !seenDot:
			seenDot = true
		case c >= '0' && c <= '9':
			digits++
			if !seenDot {
				if whole > phaseHistHigh {
					return 0, false
				}
				whole = whole*10 + int64(c-'0')
			} else if scale > 1 {
				scale /= 10
				frac += int64(c-'0') * scale
			}
		default:
			return 0, false
		}
	}
	return whole*1000 + frac, digits > 0
}
