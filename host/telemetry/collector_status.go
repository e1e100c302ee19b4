package telemetry

import "strconv"

// procStatus is the part of /proc/<pid>/status the sampler uses.
type procStatus struct {
	rss         uint64 // bytes (VmRSS)
	rssAnon     uint64 // bytes (RssAnon: private, not file or shared memory)
	threads     int
	ctxSwitches uint64 // voluntary + nonvoluntary, of this thread only
}

func parseStatus(b []byte) procStatus {
	var s procStatus
	if v, ok := keyValue(b, "VmRSS"); ok {
		s.rss = v * 1024
	}
	if v, ok := keyValue(b, "RssAnon"); ok {
		s.rssAnon = v * 1024
	}
	if v, ok := keyValue(b, "Threads"); ok {
		s.threads = int(v)
	}
	v, _ := keyValue(b, "voluntary_ctxt_switches")
	n, _ := keyValue(b, "nonvoluntary_ctxt_switches")
	s.ctxSwitches = v + n
	return s
}

// readStatus reads a process's RSS and thread count and sums the context
// switches of all its live threads (the counters in /proc/<pid>/status are
// the main thread's only).
func (fs FS) readStatus(pid int, buf []byte) (procStatus, error) {
	p := strconv.Itoa(pid)
	b, err := readFile(fs.proc(p, "status"), buf)
	if err != nil {
		return procStatus{}, err
	}
	s := parseStatus(b)
	if s.threads <= 1 {
		return s, nil
	}
	tids, err := readDirNames(fs.proc(p, "task"))
	if err != nil {
		return s, nil
	}
	for _, tid := range tids {
		if tid == p {
			continue
		}
		if b, err := readFile(fs.proc(p, "task", tid, "status"), buf); err == nil {
			s.ctxSwitches += parseStatus(b).ctxSwitches
		}
	}
	return s, nil
}
