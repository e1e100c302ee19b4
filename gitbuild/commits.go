package gitbuild

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// Commit is one commit of a branch: its SHA, its subject line and, when
// listed by Tags, the release tag that names it. The subject is the
// commit author's text: it is read through textsafe.CleanText (git passes
// ESC and other control characters through %s), so it prints safely on a
// terminal and in a variant's description.
type Commit struct {
	SHA, Subject, Tag string
}

// Commits lists branch's first-parent history in repo, oldest first
// (`git rev-list --first-parent --reverse`): the commits that landed on
// the branch, not those of merged side branches.
func Commits(ctx context.Context, repo, branch string) ([]Commit, error) {
	sha, err := Resolve(ctx, repo, branch)
	if err != nil {
		return nil, err
	}
	out, err := git(ctx, repo, "log", "--first-parent", "--reverse", "--format=%H%x00%s", sha)
	if err != nil {
		return nil, err
	}
	var cs []Commit
	for _, line := range strings.Split(out, "\n") {
		h, subject, ok := strings.Cut(line, "\x00")
		if ok && h != "" {
			cs = append(cs, Commit{SHA: h, Subject: textsafe.CleanText(subject)})
		}
	}
	return cs, nil
}

// Tags lists the release tags (v1.2.3) merged into branch, in version
// order (v1.10.0 after v1.9.0, as LatestRelease orders them), each with
// its commit. Two tags of one commit are two entries.
func Tags(ctx context.Context, repo, branch string) ([]Commit, error) {
	sha, err := Resolve(ctx, repo, branch)
	if err != nil {
		return nil, err
	}
	out, err := git(ctx, repo, "tag", "--merged", sha, "--list", "v*")
	if err != nil {
		return nil, err
	}
	var tags []string
	for _, t := range strings.Fields(out) {
		if versionTag.MatchString(t) {
			tags = append(tags, t)
		}
	}
	sort.Slice(tags, func(i, j int) bool { return versionLess(tags[i], tags[j]) })
	cs := make([]Commit, 0, len(tags))
	for _, t := range tags {
		line, err := git(ctx, repo, "log", "-1", "--format=%H%x00%s", t+"^{commit}")
		if err != nil {
			return nil, fmt.Errorf("tag %s: %w", t, err)
		}
		h, subject, _ := strings.Cut(line, "\x00")
		cs = append(cs, Commit{SHA: h, Subject: textsafe.CleanText(subject), Tag: t})
	}
	return cs, nil
}

// Range lists the commits from good to bad, oldest first: good itself,
// then bad's first-parent history after it (`git log --first-parent
// --reverse good..bad`), ending with bad; what `lab bisect` halves. good
// must be an ancestor of bad and not bad itself. A change merged from a
// side branch is found at its merge commit.
func Range(ctx context.Context, repo, good, bad string) ([]Commit, error) {
	from, err := Resolve(ctx, repo, good)
	if err != nil {
		return nil, err
	}
	to, err := Resolve(ctx, repo, bad)
	if err != nil {
		return nil, err
	}
	if from == to {
		return nil, fmt.Errorf("%s and %s are the same commit %s: no range to search", good, bad, short(from))
	}
	if _, err := git(ctx, repo, "merge-base", "--is-ancestor", from, to); err != nil {
		return nil, fmt.Errorf("%s (%s) is not an ancestor of %s (%s): give the older commit first", good, short(from), bad, short(to))
	}
	first, err := git(ctx, repo, "log", "-1", "--format=%H%x00%s", from)
	if err != nil {
		return nil, err
	}
	out, err := git(ctx, repo, "log", "--first-parent", "--reverse", "--format=%H%x00%s", from+".."+to)
	if err != nil {
		return nil, err
	}
	var cs []Commit
	for _, line := range strings.Split(first+"\n"+out, "\n") {
		h, subject, ok := strings.Cut(line, "\x00")
		if ok && h != "" {
			cs = append(cs, Commit{SHA: h, Subject: textsafe.CleanText(subject)})
		}
	}
	return cs, nil
}

// TopoOrder is the repository's commits reachable from HEAD in git's
// topological order, oldest first (`git rev-list --topo-order --reverse
// HEAD`): the order `lab history --repo` places runs in.
func TopoOrder(ctx context.Context, repo string) ([]string, error) {
	out, err := git(ctx, repo, "rev-list", "--topo-order", "--reverse", "HEAD")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", repo, err)
	}
	return strings.Fields(out), nil
}
