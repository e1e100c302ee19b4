package stats

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// groupWarnings says what happened in a group's trials that makes its
// numbers suspect: failed trials (left out), events such as OOM kills and
// crashes, request errors and requests the generator dropped.
func groupWarnings(g group) []string {
	var ws []string
	var failed []string
	var errs, reqs, dropped int64
	var errTrials, disturbed []int
	for _, t := range g.trials {
		if t.Error == "" && t.Interference != nil && t.Interference.Flagged {
			disturbed = append(disturbed, t.Seq)
		}
		if t.Error != "" {
			failed = append(failed, fmt.Sprintf("#%d (%s)", t.Seq, t.Error))
			continue
		}
		reqs += t.Load.Requests
		dropped += t.Load.Dropped
		if t.Load.Errors > 0 {
			errs += t.Load.Errors
			errTrials = append(errTrials, t.Seq)
		}
	}
	if len(failed) > 0 {
		ws = append(ws, fmt.Sprintf("%s: %d failed trial(s) left out: %s", g.name, len(failed), strings.Join(failed, ", ")))
	}
	if kinds := eventKinds(g); kinds != "" {
		ws = append(ws, fmt.Sprintf("%s: events in trials: %s", g.name, kinds))
	}
	if errs > 0 {
		ws = append(ws, fmt.Sprintf("%s: %d request error(s) (%.2g%% of requests) in trial(s) %s", g.name, errs, 100*float64(errs)/float64(max(reqs, 1)), seqList(errTrials)))
	}
	if len(disturbed) > 0 {
		ws = append(ws, fmt.Sprintf("%s: trial(s) %s measured while other work used more than the limit of the machine's CPUs (kept: too few clean rounds)", g.name, seqList(disturbed)))
	}
	if dropped > 0 {
		ws = append(ws, fmt.Sprintf("%s: the load generator dropped %d request(s) (could not keep the rate)", g.name, dropped))
	}
	return ws
}

// eventKinds counts a group's distinct events by kind: "oom-kill ×1 (#3), crash ×2 (#3, #5)".
func eventKinds(g group) string {
	type key struct {
		kind  lab.EventKind
		trial int
		t     int64
	}
	seqs := map[int]bool{}
	for _, t := range g.trials {
		seqs[t.Seq] = true
	}
	seen := map[key]bool{}
	count := map[lab.EventKind]int{}
	where := map[lab.EventKind][]int{}
	add := func(e lab.Event, trial int) {
		k := key{e.Kind, trial, e.T.UnixNano()}
		if seen[k] {
			return
		}
		seen[k] = true
		count[e.Kind]++
		where[e.Kind] = append(where[e.Kind], trial)
	}
	for _, t := range g.trials {
		for _, e := range t.Events {
			add(e, t.Seq)
		}
	}
	for _, e := range g.events {
		if seqs[e.Trial] {
			add(e, e.Trial)
		}
	}
	if len(count) == 0 {
		return ""
	}
	kinds := slices.Sorted(maps.Keys(count))
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s ×%d (trial %s)", k, count[k], seqList(where[k])))
	}
	return strings.Join(parts, ", ")
}

func seqList(seqs []int) string {
	seqs = append([]int(nil), seqs...)
	sort.Ints(seqs)
	var parts []string
	for i, s := range seqs {
		if i > 0 && seqs[i-1] == s {
			continue
		}
		parts = append(parts, fmt.Sprintf("#%d", s))
	}
	return strings.Join(parts, ", ")
}
