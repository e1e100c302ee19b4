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
// by status. Requests of the same method and path (a line given twice)
// share their rows, as vegeta's report groups them; the row keeps the
// first line. Called with no worker running.
func (r *runner) endpoints() []EndpointStat {
	type row struct {
		st EndpointStat
		h  *hdrhistogram.Histogram
	}
	if len(r.eps) == 0 {
		return nil
	}
	var rows []*row
	byName := map[string]*row{}
	for ep, q := range r.eps {
		var codes []int
		for _, sh := range r.shards {
			for _, e := range sh.eps[ep] {
				if !slices.Contains(codes, e.status) {
					codes = append(codes, e.status)
				}
			}
		}
		slices.Sort(codes)
		for _, c := range codes {
			name := fmt.Sprintf("%d %s %s", c, q.Method, q.Path)
			m := byName[name]
			if m == nil {
				m = &row{st: EndpointStat{Name: name, Method: q.Method, Path: q.Path, Status: c, Line: q.Line}, h: newHist()}
				byName[name] = m
				rows = append(rows, m)
			}
			for _, sh := range r.shards {
				for _, e := range sh.eps[ep] {
					if e.status == c {
						m.st.Requests += e.n
						m.st.Errors += e.errs
						m.h.Merge(e.lat)
					}
				}
			}
		}
	}
	out := make([]EndpointStat, len(rows))
	for i, m := range rows {
		if h := m.h; h.TotalCount() > 0 {
			q := quantiles(h, 0.50, 0.90, 0.95, 0.99)
			m.st.Min, m.st.Max = time.Duration(h.Min()), time.Duration(h.Max())
			m.st.P50, m.st.P90, m.st.P95, m.st.P99 = q[0], q[1], q[2], q[3]
		}
		out[i] = m.st
	}
	return out
}
