package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/gate"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// errGate marks a run whose --gate fired (exit code 3).
var errGate = errors.New("gate")

// exitGate is the exit code of a run whose --gate fired: distinct from
// failures (1) and usage errors (2), so that CI can tell a regression from
// a broken run.
const exitGate = 3

// errInconclusive marks a run whose --gate fired nowhere but was blind
// somewhere (exit code exitInconclusive): neither a pass nor a regression.
var errInconclusive = errors.New("gate inconclusive")

const exitInconclusive = 4

// stepSummaryEnv names the file GitHub Actions shows as the job's summary.
const stepSummaryEnv = "GITHUB_STEP_SUMMARY"

// prFlags are `lab run`'s flags for comparing builds and for CI:
// --binary, --scenarios, --markdown and --gate.
type prFlags struct {
	binaries  []lab.Binary
	git       repoFlags // --repo and the flags that build refs
	scenarios []string
	markdown  string
	gateText  string
	rules     []gate.Rule
}

func (p *prFlags) add(fs *flag.FlagSet) {
	p.git.add(fs)
	fs.Func("binary", "`NAME=PATH` of a PostgREST executable, or NAME=ref:REF built from --repo; twice or more replace the experiment's variants (the first is the baseline)", func(s string) error {
		b, err := parseBinary(s)
		if err != nil {
			return err
		}
		p.binaries = append(p.binaries, b)
		return nil
	})
	fs.Func("scenarios", "comma-separated `list` of scenarios instead of the experiment's", func(s string) error {
		p.scenarios = nil
		for _, sc := range strings.Split(s, ",") {
			if sc = strings.TrimSpace(sc); sc != "" {
				p.scenarios = append(p.scenarios, sc)
			}
		}
		if len(p.scenarios) == 0 {
			return errors.New("give at least one scenario")
		}
		return nil
	})
	fs.StringVar(&p.markdown, "markdown", "", "write a summary sized for a GitHub comment to `FILE` (verdict table first, details folded)")
	fs.Func("gate", "exit with code 3 when one of the `RULES` fires (a significant change beyond its threshold), 4 when none fired but the run could not have seen a change of a rule's size (inconclusive), e.g. 'throughput<-3%,p99>+10%' (metrics: "+strings.Join(gate.Names(), ", ")+")", func(s string) error {
		rules, err := gate.Parse(s)
		if err != nil {
			return err
		}
		p.rules, p.gateText = rules, s
		return nil
	})
}

// ci reports whether --markdown or --gate was given.
func (p *prFlags) ci() bool { return p.markdown != "" || p.rules != nil }

// edit applies --binary and --scenarios to the experiment, before its
// $(VAR)s are resolved (so `lab run binaries --binary ...` needs no
// PGRST_RELEASE).
func (p *prFlags) edit(ctx context.Context) func(*lab.Experiment) error {
	return func(e *lab.Experiment) error {
		if err := p.git.buildRefs(ctx, e, p.binaries); err != nil {
			return err
		}
		if len(p.binaries) > 0 {
			if err := binaryVariants(ctx, e, p.binaries); err != nil {
				return err
			}
		}
		if p.scenarios != nil {
			e.UseScenarios(p.scenarios)
		}
		return nil
	}
}

// finish writes the summary (--markdown, $GITHUB_STEP_SUMMARY) and
// evaluates the gate on the run's verdicts once it is written; runErr is
// the run's own error, which wins over the gate's.
func (p *prFlags) finish(res *session.Result, runErr error, stdout io.Writer) error {
	if res == nil || res.Dir == "" {
		return runErr
	}
	run, v, dir := res.Run, res.Verdicts, res.Dir
	g, fired := report.GateOf(p.rules, v)
	summaryPath, hasSummary := os.LookupEnv(stepSummaryEnv)
	if p.markdown != "" || (hasSummary && summaryPath != "") {
		var b bytes.Buffer
		if err := report.Summary(&b, run, v, report.SummaryOptions{Gate: g, Dir: dir, ReportURL: report.URLFromEnv(os.Getenv), Also: p.also(run)}); err != nil {
			return errors.Join(runErr, err)
		}
		if p.markdown != "" {
			if err := atomicfile.Write(p.markdown, b.Bytes(), atomicfile.Options{Mode: 0o644}); err != nil {
				return errors.Join(runErr, fmt.Errorf("--markdown: %w", err))
			}
			fmt.Fprintf(stdout, "summary: %s (%d characters, GitHub's comment limit is %d)\n", p.markdown, b.Len(), report.CommentLimit)
		}
		if hasSummary && summaryPath != "" {
			// Appended (every step adds to it), following no link: the
			// runner names a plain file (safefile.Append).
			if err := safefile.Append(summaryPath, b.Bytes(), 0o644); err != nil {
				return errors.Join(runErr, fmt.Errorf("$%s: %w", stepSummaryEnv, err))
			}
		}
	}
	if runErr != nil || g == nil {
		return runErr
	}
	report.GateText(stdout, g)
	switch g.Decision() {
	case gate.Passed:
		return nil
	case gate.Inconclusive:
		return fmt.Errorf("%w: %s could not decide on %d comparison(s) (exit code %d)", errInconclusive, g.Rules, len(g.Blind), exitInconclusive)
	}
	return fmt.Errorf("%w: %d significant change(s) beyond %s (exit code %d)", errGate, len(fired), g.Rules, exitGate)
}

// also is what the summary compares besides the baseline: with `lab ab
// --base REF --release TAG`, the subject (the second binary) against the
// release (the third) too.
func (p *prFlags) also(run *lab.Run) []*stats.Verdicts {
	if p.git.release == "" || len(p.binaries) != 3 {
		return nil
	}
	return []*stats.Verdicts{stats.CompareWith(run, 0, p.binaries[2].Name, p.binaries[1].Name)}
}
