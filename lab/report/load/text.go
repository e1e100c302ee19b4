package load

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Text writes a human-readable summary of s (wrk-like).
func Text(w io.Writer, s *Result) error {
	var b strings.Builder
	model := fmt.Sprintf("closed, %d connections", s.Connections)
	if s.Model == "open" {
		model = fmt.Sprintf("open, %s req/s asked, max %d in flight", format.Count(s.TargetRate), s.Connections)
	}
	textsafe.Fprintf(&b, "%s: %s, %s measured\n", s.Scenario, model, s.Duration.Round(time.Millisecond))
	fmt.Fprintf(&b, "  requests   %d (%s req/s succeeded)   errors %d (%.2f%%)   dropped %d (%.2f%%)\n",
		s.Requests, format.Count(s.Rate), s.Errors, 100*s.ErrorRate, s.Dropped, 100*s.DroppedRate)
	fmt.Fprintf(&b, "  latency    min %s  mean %s  p50 %s  p90 %s  p95 %s  p99 %s  p99.9 %s  max %s\n",
		fd(s.Min), fd(s.Mean), fd(s.P50), fd(s.P90), fd(s.P95), fd(s.P99), fd(s.P999), fd(s.Max))
	if s.Model == "open" {
		fmt.Fprintf(&b, "  service    p50 %s  p99 %s   (latency counts from the intended start)\n", fd(s.ServiceP50), fd(s.ServiceP99))
		fmt.Fprintf(&b, "  send delay p50 %s  p99 %s  max %s   (the generator's own lateness)\n", fd(s.SendDelayP50), fd(s.SendDelayP99), fd(s.SendDelayMax))
		if s.Waited > 0 {
			fmt.Fprintf(&b, "  waited     %d requests (%.2f%%) found all %d connections busy and left when one came free (their latency counts from when they were due)\n",
				s.Waited, 100*float64(s.Waited)/float64(max(1, s.Requests)), s.Connections)
		}
	}
	if s.Timed > 0 {
		fmt.Fprintf(&b, "  server     ")
		for _, p := range s.Phases {
			textsafe.Fprintf(&b, " %s %s", p.Name, fd(p.Mean)) // the server's names
		}
		fmt.Fprintf(&b, "   sum %s   (Server-Timing means, %d answers)\n", fd(s.ServerTotal), s.Timed)
	}
	fmt.Fprintf(&b, "  data       received %s  sent %s   max in flight %d\n", fmtBytes(float64(s.BytesIn)), fmtBytes(float64(s.BytesOut)), s.MaxInFlight)
	fmt.Fprintf(&b, "  status    ")
	codes := make([]int, 0, len(s.Status))
	for c := range s.Status {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	for _, c := range codes {
		fmt.Fprintf(&b, " %d:%d", c, s.Status[c])
	}
	b.WriteString("\n")
	if len(s.ErrorKinds) > 0 {
		kinds := make([]string, 0, len(s.ErrorKinds))
		for k := range s.ErrorKinds {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		b.WriteString("  errors    ")
		for _, k := range kinds {
			textsafe.Fprintf(&b, " %s:%d", k, s.ErrorKinds[k])
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fd(d time.Duration) string { return format.Duration(d) }

// fmtBytes formats like k6 (kB, MB with decimal units).
func fmtBytes(f float64) string {
	switch {
	case f >= 1e9:
		return fmt.Sprintf("%.1f GB", f/1e9)
	case f >= 1e6:
		return fmt.Sprintf("%.1f MB", f/1e6)
	case f >= 1e3:
		return fmt.Sprintf("%.1f kB", f/1e3)
	}
	return fmt.Sprintf("%.0f B", f)
}
