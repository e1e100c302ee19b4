// Package session is the layer every command runs an experiment through,
// above packages lab (the run loop) and stats (the verdicts):
//
//   - Load reads an experiment (a bundled name or a file, through a
//     Source: the experiment file format), applies the
//     command line's edits and overrides, and validates the result once:
//     the model, and, through a RequestChecker, every request it will send
//     (targets files, {jwt} templates, the tx=rollback rule).
//   - Run builds the lab.Runner with the stop rule (stats.DecidedFunc) as
//     its default, runs the experiment against a lab.Server, computes the
//     verdicts once, and writes the whole result directory
//     (RESULTS/<experiment>/<stamp>/: run.json and every report) atomically:
//     it appears complete or not at all.
//   - TermProgress prints a run's progress as it goes: a line per trial
//     and, on a terminal, a live line (lab run, ab, track, bisect).
//   - Matrix runs one experiment on several hosts (at the same time when
//     their generators get CPUs of their own) and writes the matrix report.
//   - Calibrate measures a design's false positives and power on this
//     machine (A/A and A/A' runs with a known injected cost).
//
// It imports no adapter: the experiment source, the server side, the
// loader, the request checker, the hosts of a matrix and the injection
// come in as ports that cmd/lab wires to experiments, host/reconcile,
// loadgen/trial and host/agent.
//
//	src := session.Source{Read: experiments.Load, Expand: experiments.Expand}
//	e, err := session.Load(src, "socket-vs-tcp", session.Edits{MaxTrials: 12}, trial.CheckRequests)
//	...
//	res, err := session.Run(ctx, session.Options{Experiment: e, Server: srv, Loader: ld, Results: "results"})
//	report.Terminal(os.Stdout, res.Run, res.Verdicts)
package session
