package track

import (
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// SelectionError is a Selection that cannot be applied (a negative count,
// a since commit not listed): the command line reports it as a usage
// error.
type SelectionError struct{ Msg string }

func (e *SelectionError) Error() string { return e.Msg }

// Commit is one commit of the branch, oldest first in a list.
type Commit struct {
	SHA, Subject string
	Tag          string // the release tag that names it, when listed by tags
}

// Label is the commit's short SHA with its tag or subject, for progress
// lines and the variant's description: "abc1234 (v1.2.0)", "abc1234 (fix
// the pool)". The subject is its author's text: it goes through
// textsafe.CleanText (gitbuild reads it so too; a Commit may come from
// elsewhere).
func (c Commit) Label() string {
	what := textsafe.CleanText(c.Tag)
	if what == "" {
		what = textsafe.CleanText(c.Subject)
	}
	if r := []rune(what); len(r) > 50 {
		what = string(r[:49]) + "…"
	}
	sha := lab.ShortCommit(c.SHA)
	if what == "" {
		return sha
	}
	return sha + " (" + what + ")"
}

// Selection narrows the branch's commits. The zero value keeps them all.
type Selection struct {
	// Every keeps every Nth commit (the first, the N+1th, …) of those from
	// Since on; 0 and 1 keep all.
	Every int
	// Since is a commit SHA: the commits before it are left out (it is
	// kept). Empty: from the first.
	Since string
	// Limit measures at most this many (the oldest of those to measure);
	// 0 for no limit.
	Limit int
}

// Plan is what `lab track` will do: the commits to measure, oldest first,
// and those it skips because they are measured already.
type Plan struct {
	Measure  []Commit
	Measured []Commit
	Limited  int // commits left for a later `lab track` by Limit
}

// Select plans the commits to measure of commits (oldest first): those
// Selection keeps that measured does not report measured.
func Select(commits []Commit, measured func(sha string) bool, s Selection) (Plan, error) {
	if s.Every < 0 || s.Limit < 0 {
		return Plan{}, &SelectionError{fmt.Sprintf("every (%d) and limit (%d) must be 0 or more", s.Every, s.Limit)}
	}
	from := 0
	if s.Since != "" {
		from = -1
		for i, c := range commits {
			if strings.EqualFold(c.SHA, s.Since) {
				from = i
				break
			}
		}
		if from < 0 {
			return Plan{}, &SelectionError{fmt.Sprintf("since %s: not one of the %d commits listed", s.Since[:min(len(s.Since), 12)], len(commits))}
		}
	}
	every := max(s.Every, 1)
	var p Plan
	seen := map[string]bool{}
	for i, c := range commits[from:] {
		if i%every != 0 || seen[c.SHA] {
			continue
		}
		seen[c.SHA] = true
		switch {
		case measured != nil && measured(c.SHA):
			p.Measured = append(p.Measured, c)
		case s.Limit > 0 && len(p.Measure) >= s.Limit:
			p.Limited++
		default:
			p.Measure = append(p.Measure, c)
		}
	}
	return p, nil
}
