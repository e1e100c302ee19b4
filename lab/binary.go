package lab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// A Binary is one PostgREST executable a comparison of builds measures
// (`lab ab`, `--binary NAME=PATH` or `NAME=ref:REF`): the variant it names,
// its path once known, and for a git ref what it was built from.
type Binary struct {
	Name    string
	Path    string // the executable ("" until a ref is built)
	Ref     string // the git ref to build ("" for a path)
	Commit  string // the ref's commit, once built
	Command string // the command that built it
}

// Built reports whether the binary was built from a ref.
func (b Binary) Built() bool { return b.Commit != "" }

// Description says where the binary came from, as its variant's
// description: "--binary PATH", or "REF (abc1234), built with `CMD`".
func (b Binary) Description() string {
	if !b.Built() {
		return "--binary " + b.Path
	}
	return fmt.Sprintf("%s (%s), built with `%s`", b.Ref, ShortCommit(b.Commit), b.Command)
}

// label is "REF (abc1234)".
func (b Binary) label() string { return fmt.Sprintf("%s (%s)", b.Ref, ShortCommit(b.Commit)) }

// ShortCommit is a commit's first seven characters, as git abbreviates it
// and as every report names a build.
func ShortCommit(sha string) string { return sha[:min(len(sha), 7)] }

// UseBinaries replaces e's variants with one per binary, the first the
// baseline, each with the settings of the file's baseline variant (e.g.
// loadtest's db-pool = 1); everything else (scenarios, load, trials) stays
// the file's, but a duet serves two: three binaries or more run one after
// the other in a new random order every round (OrderRandom: in a fixed
// order the second of three builds measured 12-20 % cheaper than it was,
// lab bisect's notebook). The names must differ.
func (e *Experiment) UseBinaries(bins []Binary) error {
	if len(bins) < 2 {
		return fmt.Errorf("--binary: give at least two (the first is the baseline), e.g. --binary base=PATH --binary pr=PATH")
	}
	seen := map[string]bool{}
	base := e.BaselineVariant()
	vs := make([]Variant, 0, len(bins))
	for i, b := range bins {
		if seen[b.Name] {
			return fmt.Errorf("--binary %s=%s: the name %q is given twice", b.Name, b.Path, b.Name)
		}
		seen[b.Name] = true
		vs = append(vs, base.WithBinary(b.Name, b.Path, b.Description(), i == 0))
	}
	e.Variants = vs
	if !slices.ContainsFunc(bins, func(b Binary) bool { return b.Commit != "" }) {
		// Executables by path: the file's title ("release vs branch")
		// would name builds that did not run.
		var others []string
		for _, b := range bins[1:] {
			others = append(others, b.Name)
		}
		e.Title = "PostgREST " + strings.Join(others, " and ") + " vs " + bins[0].Name
	}
	if len(vs) > 2 && e.Trials.Order == OrderDuet {
		e.Trials.Order = OrderRandom
	}
	return nil
}

// BinariesTitle is a run's title from built refs: "HEAD (abc1234) vs main
// (def5678) and v13.0.8 (0123456)" when the subject is the second binary
// (lab ab with --base or --release: the baseline first, then the subject),
// else "B (…) and C (…) vs A (…)", A the baseline.
func BinariesTitle(bins []Binary, subjectSecond bool) string {
	var others []string
	if subjectSecond {
		for i, b := range bins {
			if i != 1 {
				others = append(others, b.label())
			}
		}
		return bins[1].label() + " vs " + strings.Join(others, " and ")
	}
	for _, b := range bins[1:] {
		others = append(others, b.label())
	}
	return strings.Join(others, " and ") + " vs " + bins[0].label()
}

// NoteBinaries records in run what each variant ran: its binary and the
// version it printed (untrusted text, cleaned like an agent's), by
// variant name, and for a binary built from a ref of repo, the ref and
// its commit.
func NoteBinaries(run *Run, variants []Variant, versions map[string]string, repo string, bins []Binary) {
	for i := range run.Variants {
		rv := &run.Variants[i]
		for _, v := range variants {
			if v.Name == rv.Name && v.Binary != "" {
				rv.Binary, rv.Version = v.Binary, textsafe.CleanText(versions[v.Name])
			}
		}
		for _, b := range bins {
			if b.Name == rv.Name && b.Built() {
				rv.Build.Repo, rv.Build.Ref, rv.Build.Commit = repo, b.Ref, b.Commit
			}
		}
	}
}
