package loadgen

import (
	"math"
	"slices"
	"testing"
	"time"
)

// k6Trend is k6's Trend of http_req_duration over values (its TrendSink,
// k6 v0.4x..v1: every value kept): avg, min, med, max, p(90), p(95), the
// percentiles the value at rank pct·(n-1), interpolated linearly.
func k6Trend(values []time.Duration) map[string]float64 {
	v := make([]float64, len(values))
	for i, d := range values {
		v[i] = float64(d)
	}
	slices.Sort(v)
	p := func(pct float64) float64 {
		i := pct * float64(len(v)-1)
		j, k := v[int(math.Floor(i))], v[int(math.Ceil(i))]
		return j + (k-j)*(i-math.Floor(i))
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return map[string]float64{"avg": sum / float64(len(v)), "min": v[0], "med": p(0.5), "max": v[len(v)-1], "p(90)": p(0.90), "p(95)": p(0.95)}
}

// trace is a known set of answers: statuses and service times. Its times
// sit on the histogram's bucket starts (it keeps 3 significant digits:
// 1 µs steps to 1 ms, ..., 8.192 µs steps from 8.4 ms to 16.8 ms), so that
// the comparison with k6 can be exact; others land within 0.1 %.
var trace = func() (out []struct {
	status int
	svc    time.Duration
}) {
	steps := []int64{1712, 512, 3, 977, 1024, 2047, 640, 1399, 4, 1850, 733, 1200, 1201, 15, 999, 1536, 288, 1900, 1100, 60}
	statuses := []int{200, 200, 201, 200, 404, 200, 500, 200, 200, 304, 200, 200, 200, 200, 503, 200, 200, 200, 200, 200}
	for i, k := range steps {
		out = append(out, struct {
			status int
			svc    time.Duration
		}{statuses[i], time.Duration(k * 8192)})
	}
	return out
}()

// The service time's figures of a Summary are k6's
// http_req_duration{expected_response:true} of the same answers, exactly:
// avg, min, med, max, p(90), p(95) of the successful answers (failed ones
// count as neither throughput nor latency), the percentiles interpolated
// between two values as k6 does. The latency's figures follow the same
// rule.
func TestSummaryIsK6OnAKnownTrace(t *testing.T) {
	r := &runner{workers: 4, cfg: Config{Open: &Open{Rate: 100}}}
	sh := newShard()
	r.shards = []*shard{sh}
	var svcs []time.Duration
	for _, a := range trace {
		kind := errNone
		if a.status >= 400 {
			kind = errStatus
		}
		// latency = service time + 1 ms of waiting for a connection (open model)
		sh.record(true, a.status, kind, a.svc+1024*time.Microsecond, a.svc, 0, -1, 1000, 200)
		if kind == errNone {
			svcs = append(svcs, a.svc)
		}
	}
	s := r.result(&collector{r: r}, 2*time.Second).Summary
	want := k6Trend(svcs)
	for name, got := range map[string]time.Duration{"avg": s.ServiceMean, "min": s.ServiceMin, "med": s.ServiceP50, "max": s.ServiceMax,
		"p(90)": s.ServiceP90, "p(95)": s.ServiceP95} {
		if math.Abs(float64(got)-want[name]) > 0.5 { // to the nanosecond
			t.Errorf("http_req_duration %s: %v, k6 says %v", name, got, time.Duration(want[name]))
		}
	}
	lat := make([]time.Duration, len(svcs))
	for i, d := range svcs {
		lat[i] = d + 1024*time.Microsecond
	}
	wantLat := k6Trend(lat)
	if math.Abs(float64(s.Mean)-wantLat["avg"]) > 0.5 || math.Abs(float64(s.P50)-wantLat["med"]) > 0.5 || math.Abs(float64(s.P90)-wantLat["p(90)"]) > 0.5 {
		t.Errorf("latency mean %v p50 %v p90 %v, want %v %v %v", s.Mean, s.P50, s.P90,
			time.Duration(wantLat["avg"]), time.Duration(wantLat["med"]), time.Duration(wantLat["p(90)"]))
	}
	if s.Requests != 20 || s.Errors != 3 || s.Status[404] != 1 || s.Status[304] != 1 || s.BytesIn != 20000 || s.BytesOut != 4000 {
		t.Errorf("counts: %+v", s)
	}
}

// Values off the bucket starts come back within the histogram's 3
// significant digits.
func TestQuantilesWithinResolution(t *testing.T) {
	h := newHist()
	var vs []time.Duration
	for i := int64(1); i <= 1001; i++ {
		v := time.Duration(i*i*997 + 12345)
		vs = append(vs, v)
		h.RecordValue(int64(v))
	}
	want := k6Trend(vs)
	got := quantiles(h, 0.5, 0.9, 0.95)
	for i, name := range []string{"med", "p(90)", "p(95)"} {
		if d := math.Abs(float64(got[i])-want[name]) / want[name]; d > 0.001 {
			t.Errorf("%s: %v, k6 %v (%.3f%% off)", name, got[i], time.Duration(want[name]), 100*d)
		}
	}
}
