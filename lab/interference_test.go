package lab

import (
	"context"
	"strings"
	"testing"
)

// busyServer reports whole-machine CPU: 1.5 cores in the round given,
// 0.5 otherwise (the services use 0.2 and 0.1 cores).
type busyServer struct {
	fakeServer
	busyRound int
	round     *int
}

func (b *busyServer) Describe(context.Context) (Host, TargetInfo, error) {
	return Host{Hostname: "h", CPUs: 2}, TargetInfo{Binary: "fake"}, nil
}

func (b *busyServer) Watch(context.Context) (Window, error) { return busyWindow{b}, nil }

type busyWindow struct{ b *busyServer }

func (w busyWindow) Stop(context.Context, int64) (Telemetry, error) {
	m := 0.5
	if *w.b.round == w.b.busyRound {
		m = 1.5
	}
	return Telemetry{Server: Usage{CPUSeconds: 2, CPUUtil: 0.2, CPUPerRequestUs: 100}, Database: Usage{CPUSeconds: 1, CPUUtil: 0.1}, MachineCPU: m}, nil
}

// roundLoader counts rounds by the variant order (tcp opens a round) and
// reports 0.1 cores of generator CPU.
type roundLoader struct{ round *int }

func (l roundLoader) Load(_ context.Context, spec LoadSpec) (LoadOutcome, error) {
	return LoadOutcome{Stats: LoadStats{Requests: 1000, Rate: 100, Seconds: 10}, GeneratorCPU: 1}, nil
}

// A round in which other work used more than the limit is left out of the
// verdicts (every trial of it, so pairs stay whole), said so, and the run
// goes on within trials.max; quiet trials carry their figures unflagged.
func TestInterferenceLeavesTheRoundOut(t *testing.T) {
	round := 0
	srv := &busyServer{busyRound: 2, round: &round}
	e := testExperiment()
	e.Trials.Min, e.Trials.Max = 2, 3
	notes := &noteRecorder{}
	r := &Runner{Server: srv, Loader: roundLoader{&round}, Progress: notes, Decided: FixedRounds}
	// The round counter follows the Applying calls of the baseline.
	notes.onApply = func(pos Position) { round = pos.Round }
	run, err := r.Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trials) != 6 {
		t.Fatalf("%d trials, want 6 (within trials.max)", len(run.Trials))
	}
	for _, tr := range run.Trials {
		in := tr.Interference
		if in == nil {
			t.Fatalf("trial %d: no interference figures", tr.Seq)
		}
		if tr.Rep == 2 {
			if !in.Flagged || !strings.Contains(tr.Error, "interference: other work used more than 20%") || in.Other < 1.09 || in.Other > 1.11 {
				t.Errorf("round 2 trial %d: %+v, error %q; want flagged, 1.1 cores other", tr.Seq, in, tr.Error)
			}
		} else if in.Flagged || tr.Error != "" || in.Other < 0.09 || in.Other > 0.11 || in.Generator != 0.1 {
			t.Errorf("round %d trial %d: %+v, error %q; want 0.1 cores other, not flagged", tr.Rep, tr.Seq, in, tr.Error)
		}
	}
	if !strings.Contains(strings.Join(notes.notes, "\n"), "left out of the verdicts") {
		t.Errorf("notes %q", notes.notes)
	}
	e.Trials.Interference = 1 // disabled
	round = 0
	run, _ = r.Run(context.Background(), e)
	for _, tr := range run.Trials {
		if tr.Error != "" || tr.Interference.Flagged {
			t.Errorf("check disabled: trial %d flagged (%q)", tr.Seq, tr.Error)
		}
	}
}

type noteRecorder struct {
	NoProgress
	notes   []string
	onApply func(Position)
}

func (n *noteRecorder) Note(s string) { n.notes = append(n.notes, s) }
func (n *noteRecorder) Applying(pos Position) {
	if n.onApply != nil {
		n.onApply(pos)
	}
}

// When too few clean rounds remain at the end, the disturbed ones are kept
// (flagged) rather than leaving no verdict.
func TestInterferenceKeptWhenTooFewClean(t *testing.T) {
	round := 0
	srv := &busyServer{busyRound: 1, round: &round}
	e := testExperiment()
	e.Trials.Min, e.Trials.Max = 2, 2
	notes := &noteRecorder{onApply: func(pos Position) { round = pos.Round }}
	run, err := (&Runner{Server: srv, Loader: roundLoader{&round}, Progress: notes, Decided: FixedRounds}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range run.Trials {
		if tr.Error != "" || (tr.Rep == 1) != tr.Interference.Flagged {
			t.Errorf("trial %d round %d: error %q flagged %v; want kept, flagged in round 1 only", tr.Seq, tr.Rep, tr.Error, tr.Interference.Flagged)
		}
	}
	if !strings.Contains(strings.Join(notes.notes, "\n"), "only 1 clean round(s) of the 2 needed; the 2 disturbed trial(s) are kept") {
		t.Errorf("notes %q", notes.notes)
	}
}
