package loadgen

import (
	"fmt"
	"slices"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// EndpointStat is one request of the mix with one answer status, measured
// apart (Config.ByRequest): a row of postgrest-loadtest-report, named
// "STATUS METHOD PATH" (Name). A request answered with two statuses makes
// two rows. Status 0 counts the answers that never came (transport
// errors, as vegeta's code 0); they have no latency.
type EndpointStat struct {
	Name                         string // "200 GET /artist?select=*&artist_id=eq.3"
	Method                       string
	Path                         string // as the request gives it (templates unrendered)
	Status                       int
	Line                         int // of the request in its targets file (0: not from one)
	Requests                     int64
	Errors                       int64 // of Requests, the failed ones (not the expected status, or no answer)
	Min, P50, P90, P95, P99, Max time.Duration
}

// epStat is one (request, status) pair of a shard.
type epStat struct {
	status  int
	n, errs int64
	lat     *hdrhistogram.Histogram
}

// recordEndpoint adds a measured answer to its request's row for status.
// The statuses of one request are few: a short slice, scanned; a new
// status allocates its histogram once.
func (s *shard) recordEndpoint(ep, status int, kind errKind, lat time.Duration) {
	s.mu.Lock()
	rows := s.eps[ep]
	i := 0
	for i < len(rows) && rows[i].status != status {
		i++
	}
	if i == len(rows) {
		rows = append(rows, epStat{status: status, lat: newHist()})
		s.eps[ep] = rows
	}
	e := &rows[i]
	e.n++
	if kind != errNone {
		e.errs++
	}
	if lat >= 0 {
		e.lat.RecordValue(clampNs(lat))
	}
	s.mu.Unlock()
}

// endpoints merges the shards' rows: in the order of the requests, then
// by status. Called with no worker running.
func (r *runner) endpoints() []EndpointStat {
	var out []EndpointStat
	for ep, q := range r.eps {
		byStatus := map[int]*epStat{}
		var codes []int
		for _, sh := range r.shards {
			for _, e := range sh.eps[ep] {
				m := byStatus[e.status]
				if m == nil {
					m = &epStat{status: e.status, lat: newHist()}
					byStatus[e.status] = m
					codes = append(codes, e.status)
				}
				m.n += e.n
				m.errs += e.errs
				m.lat.Merge(e.lat)
			}
		}
		slices.Sort(codes)
		for _, c := range codes {
			m := byStatus[c]
			row := EndpointStat{Name: fmt.Sprintf("%d %s %s", c, q.Method, q.Path), Method: q.Method, Path: q.Path,
				Status: c, Line: q.Line, Requests: m.n, Errors: m.errs}
			if h := m.lat; h.TotalCount() > 0 {
				d := func(p float64) time.Duration { return time.Duration(h.ValueAtQuantile(p)) }
				row.Min, row.Max = time.Duration(h.Min()), time.Duration(h.Max())
				row.P50, row.P90, row.P95, row.P99 = d(50), d(90), d(95), d(99)
			}
			out = append(out, row)
		}
	}
	return out
}
