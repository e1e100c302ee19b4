package loadgen

import (
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry: ns, 1 µs resolution, up to 60 s, 3 significant digits.
const (
	histLow  = 1_000
	histHigh = 60_000_000_000
)

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(histLow, histHigh, 3) }

// shard holds the metrics of an event loop's workers (one shard per loop,
// so its lock is contended only by the collector's drain once a second).
type shard struct {
	mu       sync.Mutex
	lat, svc *hdrhistogram.Histogram // measured part
	latM     moments                 // lat's exact mean, min, max
	svcM     moments                 // svc's
	sameSvc  bool                    // closed model: service time is the latency, svc stays empty
	lag      *hdrhistogram.Histogram // open model: send time - intended time (nil when closed)
	first    *hdrhistogram.Histogram // time to the first byte of the measured successful answers
	status   [600]int64
	kinds    [numErrKinds]int64
	n, errs  int64
	in, out  int64
	// firstAt and lastAt are when the earliest and the latest measured
	// answers finished.
	firstAt, lastAt time.Time
	edges           edges       // the first and last measured successful answers
	phases          *phaseHists // Server-Timing of measured answers (Config.ServerTiming), else nil
	eps             [][]epStat  // per request (tmpl.ep), per status: measured answers (Config.ByRequest), else nil

	// interval (since the collector's last snapshot), measured or not
	iv                     *hdrhistogram.Histogram
	ivN, ivErrs, ivIn      int64
	ivMeasured, ivMeasErrs int64
}

func newShard() *shard {
	return &shard{lat: newHist(), svc: newHist(), first: newHist(), iv: hdrhistogram.New(histLow, histHigh, 2)}
}

// record adds one finished request. lat < 0 means no latency (transport
// error); first is the time to its first byte (from the intended start,
// as lat), < 0 when none came. Only a successful answer (kind errNone) enters the latency and
// service-time histograms: a failed one is counted, never timed, so that
// fast errors cannot make a server look quick.
func (s *shard) record(measured bool, status int, kind errKind, lat, svc, lag, first time.Duration, in, out int64) {
	timed := kind == errNone && lat >= 0
	s.mu.Lock()
	s.ivN++
	s.ivIn += in
	if kind != errNone {
		s.ivErrs++
	}
	if timed {
		s.iv.RecordValue(clampNs(lat))
	}
	if measured {
		if s.lag != nil {
			s.lag.RecordValue(clampNs(lag))
		}
		s.ivMeasured++
		s.n++
		s.lastAt = time.Now()
		if s.firstAt.IsZero() {
			s.firstAt = s.lastAt
		}
		s.in += in
		s.out += out
		if status >= 0 && status < len(s.status) {
			s.status[status]++
		}
		if kind != errNone {
			s.errs++
			s.ivMeasErrs++
			s.kinds[kind]++
		}
		if timed {
			s.edges.add(s.lastAt, lat)
			s.lat.RecordValue(clampNs(lat))
			s.latM.add(clampNs(lat))
			if first >= 0 {
				s.first.RecordValue(clampNs(first))
			}
			if !s.sameSvc {
				s.svc.RecordValue(clampNs(svc))
				s.svcM.add(clampNs(svc))
			}
		}
	}
	s.mu.Unlock()
}

// recordPhases adds a measured answer's Server-Timing phases.
func (s *shard) recordPhases(us *[NumPhases]int64) {
	s.mu.Lock()
	s.phases.record(us)
	s.mu.Unlock()
}

func clampNs(d time.Duration) int64 {
	v := int64(d)
	if v < histLow {
		return histLow
	}
	if v > histHigh {
		return histHigh
	}
	return v
}

// interval is what the collector takes from the shards once a second.
type interval struct {
	n, errs, in        int64
	measured, measErrs int64
}

// drain moves the shard's interval data into iv and acc.
func (s *shard) drain(iv *hdrhistogram.Histogram, acc *interval) {
	s.mu.Lock()
	if s.ivN > 0 {
		iv.Merge(s.iv)
		s.iv.Reset()
	}
	acc.n += s.ivN
	acc.errs += s.ivErrs
	acc.in += s.ivIn
	acc.measured += s.ivMeasured
	acc.measErrs += s.ivMeasErrs
	s.ivN, s.ivErrs, s.ivIn, s.ivMeasured, s.ivMeasErrs = 0, 0, 0, 0, 0
	s.mu.Unlock()
}
