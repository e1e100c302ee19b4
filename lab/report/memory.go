package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// MemoryCells are a memory row's cells as every format shows them.
type MemoryCells struct {
	Limit, Trials, OOMKills, Failed, PeakCgroup, PeakRSS, FirstByte, LastByte, Recovery string
}

// MemorySection is one scenario's memory table and its floor.
type MemorySection struct {
	Scenario, Floor string
	Rows            []MemoryCells
}

// MemorySections formats stats.MemoryFloors(run).
func MemorySections(run *lab.Run) []MemorySection {
	var out []MemorySection
	for _, f := range stats.MemoryFloors(run) {
		s := MemorySection{Scenario: f.Scenario, Floor: floorSentence(run, f)}
		for _, r := range f.Rows {
			c := MemoryCells{Limit: r.Limit, Trials: fmt.Sprint(r.Trials), OOMKills: fmt.Sprint(r.OOMKills), Failed: fmt.Sprint(r.Failed), PeakCgroup: "–", PeakRSS: "–", FirstByte: "–", LastByte: "–", Recovery: "–"}
			if r.PeakRSS > 0 {
				c.PeakRSS = format.Bytes(float64(r.PeakRSS))
			}
			if r.PeakCgroup > 0 {
				c.PeakCgroup = format.Bytes(float64(r.PeakCgroup))
			}
			if r.Recovery > 0 {
				c.Recovery = format.Duration(r.Recovery)
			}
			if r.FirstByteMs > 0 {
				c.FirstByte = format.Duration(time.Duration(r.FirstByteMs * float64(time.Millisecond)))
			}
			if r.LastByteMs > 0 {
				c.LastByte = format.Duration(time.Duration(r.LastByteMs * float64(time.Millisecond)))
			}
			s.Rows = append(s.Rows, c)
		}
		out = append(out, s)
	}
	return out
}

func floorSentence(run *lab.Run, f stats.MemoryFloor) string {
	load := LoadDesc(run.Experiment.Load)
	if f.Floor == "" {
		return fmt.Sprintf("No limit tried let the target through %s without an OOM kill or a failed trial (%s).", f.Scenario, load)
	}
	s := fmt.Sprintf("The smallest MemoryMax at which the target ran every trial of %s without an OOM kill, and every larger one too: %s (%s).", f.Scenario, f.Floor, load)
	if below := belowFloor(f); below != "" {
		s += " Below it " + below + ": what a floor means, expected, not a failure of the run."
	}
	return s
}

// belowFloor says what became of the limits under the floor ("16M, 24M
// were OOM-killed in 12 of 12 trials"), "" when there were none.
func belowFloor(f stats.MemoryFloor) string {
	var limits []string
	kills, failed, trials := 0, 0, 0
	for _, r := range f.Rows {
		if r.Limit == f.Floor {
			break
		}
		limits = append(limits, r.Limit)
		kills, failed, trials = kills+r.OOMKills, failed+r.OOMKills+r.Failed, trials+r.Trials
	}
	if len(limits) == 0 {
		return ""
	}
	return fmt.Sprintf("%s failed %d of %d trials (%d OOM kills)", strings.Join(limits, ", "), failed, trials, kills)
}

const memoryIntro = "Per memory limit (MemoryMax= on the target's unit): the trials, how many ended in an OOM kill and how many failed otherwise (e.g. the target never became ready), " +
	"and in the trials it survived: the cgroup peak, the most memory charged to the target's cgroup (the kernel's memory.peak on cgroup v2, memory.max_usage_in_bytes on v1: what MemoryMax= limits), " +
	"and the peak RSS, which also counts the file pages the processes map (the binary, its libraries), which may be charged elsewhere and the limit does not hold: RSS can read above the limit; " +
	"then the median P50 time to an answer's first byte and to its last (how long PostgREST takes to start sending, and to send), and how long it took to come back after a kill (the restart to its first ready answer)."

// mdMemory writes the memory tables (runs that vary MemoryMax=).
func mdMemory(b *bufio.Writer, run *lab.Run) {
	secs := MemorySections(run)
	if len(secs) == 0 {
		return
	}
	fmt.Fprintf(b, "## Memory\n\n")
	fmt.Fprint(b, format.MdPara(memoryIntro))
	for _, s := range secs {
		fmt.Fprint(b, format.MdPara(format.MdEscape(s.Floor)))
		fmt.Fprintf(b, "| MemoryMax | trials | OOM kills | other failures | cgroup peak | peak RSS | first byte P50 | last byte P50 | back after |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, r := range s.Rows {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", format.MdEscape(r.Limit), r.Trials, r.OOMKills, r.Failed, r.PeakCgroup, r.PeakRSS, r.FirstByte, r.LastByte, r.Recovery)
		}
		fmt.Fprintln(b)
	}
}

// MemoryText writes the memory floors for the terminal.
func MemoryText(w io.Writer, run *lab.Run) {
	for _, s := range MemorySections(run) {
		textsafe.Fprintf(w, "\n%s\n", s.Floor)
		for _, r := range s.Rows {
			textsafe.Fprintf(w, "  MemoryMax %-8s %s trials, %s OOM kills, %s other failures, cgroup peak %s, RSS %s, first byte %s, last %s, back after %s\n",
				r.Limit, r.Trials, r.OOMKills, r.Failed, r.PeakCgroup, r.PeakRSS, r.FirstByte, r.LastByte, r.Recovery)
		}
	}
}
