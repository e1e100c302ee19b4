package lab

import (
	"fmt"
	"strings"
)

// interferencePrefix starts the Error of trials left out for interference.
const interferencePrefix = "interference: "

// interference splits the machine's busy CPU during a trial into the
// measured services, the load generator and the rest; nil when the
// machine's CPU is unknown.
func interference(tel Telemetry, out LoadOutcome, cpus int, limit float64) *Interference {
	if tel.MachineCPU <= 0 || cpus <= 0 {
		return nil
	}
	in := &Interference{Machine: tel.MachineCPU, Server: tel.Server.CPUUtil, Database: tel.Database.CPUUtil, Steal: tel.StealCPU}
	if secs := out.Stats.Seconds; secs > 0 {
		in.Generator = out.GeneratorCPU / secs
	}
	in.Other = max(0, in.Machine-in.Server-in.Database-in.Generator)
	in.Share = in.Other / float64(cpus)
	in.Flagged = limit < 1 && in.Share > limit
	return in
}

// discardInterfered leaves a round out of the verdicts when other work
// used more than the limit of the machine during any of its trials: every
// trial of the round gets an Error saying so (the round's pairs stay
// whole), and the run goes on to the next round, within Trials.Max.
func (s *session) discardInterfered(round int) {
	var flagged []string
	for _, t := range s.run.Trials {
		if t.Rep == round && t.Interference != nil && t.Interference.Flagged {
			flagged = append(flagged, fmt.Sprintf("#%d %.0f%%", t.Seq, 100*t.Interference.Share))
		}
	}
	if len(flagged) == 0 {
		return
	}
	why := fmt.Sprintf(interferencePrefix+"other work used more than %.0f%% of the machine's CPUs in round %d (%s)",
		100*s.exp.Trials.InterferenceLimit(), round, strings.Join(flagged, ", "))
	for i := range s.run.Trials {
		if t := &s.run.Trials[i]; t.Rep == round && t.Error == "" {
			t.Error = why
		}
	}
	s.Progress.Note(why + "; the round is left out of the verdicts")
}

// keepInterferedIfTooFew puts rounds left out for interference back when
// the run ended with fewer than Trials.Min clean rounds: on a machine that
// is never quiet a verdict from disturbed rounds, flagged as such (the
// trials keep Interference.Flagged, and reports warn), beats none.
func (s *session) keepInterferedIfTooFew() {
	clean := map[int]bool{}
	for _, t := range s.run.Trials {
		if t.Error == "" {
			clean[t.Rep] = true
		}
	}
	if len(clean) >= s.exp.Trials.Min {
		return
	}
	kept := 0
	for i := range s.run.Trials {
		if t := &s.run.Trials[i]; t.Interfered() {
			t.Error = ""
			kept++
		}
	}
	if kept > 0 {
		s.Progress.Note(fmt.Sprintf("interference: only %d clean round(s) of the %d needed; the %d disturbed trial(s) are kept, flagged", len(clean), s.exp.Trials.Min, kept))
	}
}

// Interfered says the trial was left out for interference (other work on
// the machine), not because it failed.
func (t Trial) Interfered() bool { return strings.HasPrefix(t.Error, interferencePrefix) }

// Failed says the trial failed on its own account (an OOM kill, a crash,
// not ready, a load error): it has an error other than being left out for
// interference, after which it still ran.
func (t Trial) Failed() bool { return t.Error != "" && !t.Interfered() }
