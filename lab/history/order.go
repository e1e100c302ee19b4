package history

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Order is how a history orders its runs.
type Order string

// Orders.
const (
	// ByAuto is ByCommit when every run names its commit (or a
	// repository's order is given), else ByVersion when every run names
	// its version, else ByTime.
	ByAuto Order = ""
	// ByCommit orders by commit. With the repository's commits (git's
	// topological order), a run's commit (full or abbreviated) places it;
	// runs of unknown commits are set apart with a warning. Without them,
	// commits come in the order they were first measured (a commit's
	// earliest run), since hashes say nothing about order; runs that name
	// no commit count as commits of their own. Runs of one commit are in
	// time order.
	ByCommit Order = "commit"
	// ByVersion orders by the semantic version found in the build's
	// version (e.g. "PostgREST 12.2.3" or "v13.0.0-rc1"): numbers
	// compared numerically, a pre-release before its release (pre-releases
	// compared as text); versions without a number come last, as text.
	// Runs of one version are in time order.
	ByVersion Order = "version"
	// ByTime orders by the runs' start.
	ByTime Order = "time"
)

// ParseOrder reads --by.
func ParseOrder(s string) (Order, error) {
	switch o := Order(strings.ToLower(strings.TrimSpace(s))); o {
	case "auto", ByAuto:
		return ByAuto, nil
	case ByCommit, ByVersion, ByTime:
		return o, nil
	}
	return "", fmt.Errorf("--by %q: want commit, version, time or auto", s)
}

func resolveOrder(by Order, es []Entry, haveCommits bool) Order {
	if by != ByAuto {
		return by
	}
	if haveCommits {
		return ByCommit
	}
	all := func(f func(Entry) string) bool {
		for _, e := range es {
			if f(e) == "" {
				return false
			}
		}
		return true
	}
	switch {
	case all(func(e Entry) string { return e.Commit }):
		return ByCommit
	case all(func(e Entry) string { return e.Version }) && distinct(es, func(e Entry) string { return e.Version }):
		return ByVersion
	}
	return ByTime
}

// distinct says whether the runs name more than one value.
func distinct(es []Entry, f func(Entry) string) bool {
	for _, e := range es {
		if f(e) != f(es[0]) {
			return true
		}
	}
	return false
}

// order puts a machine's runs in order; apart are those git's order does
// not place.
func order(es []Entry, by Order, commits []string) (ordered, apart []Entry, warnings []string) {
	es = append([]Entry(nil), es...)
	byTime := func(a, b Entry) bool {
		if !a.Started.Equal(b.Started) {
			return a.Started.Before(b.Started)
		}
		return a.ID < b.ID
	}
	sort.SliceStable(es, func(i, j int) bool { return byTime(es[i], es[j]) })
	switch by {
	case ByTime:
		return es, nil, nil
	case ByVersion:
		keys := make(map[string]semver, len(es))
		for _, e := range es {
			keys[e.Version] = parseSemver(e.Version)
		}
		sort.SliceStable(es, func(i, j int) bool {
			if c := compareSemver(keys[es[i].Version], keys[es[j].Version]); c != 0 {
				return c < 0
			}
			return false // stable: time order
		})
		return es, nil, nil
	}
	if len(commits) == 0 {
		first := map[string]int{}
		for i, e := range es {
			if _, ok := first[e.Commit]; !ok || e.Commit == "" {
				first[e.Commit] = i
			}
		}
		rank := func(i int) int {
			if es[i].Commit == "" {
				return i
			}
			return first[es[i].Commit]
		}
		idx := make([]int, len(es))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return rank(idx[a]) < rank(idx[b]) })
		for _, i := range idx {
			ordered = append(ordered, es[i])
		}
		return ordered, nil, nil
	}
	pos := make(map[string]int, len(commits))
	for i, c := range commits {
		pos[strings.ToLower(c)] = i
	}
	where := func(c string) (int, bool) {
		c = strings.ToLower(c)
		if i, ok := pos[c]; ok {
			return i, true
		}
		if len(c) < 4 || !isHex(c) {
			return 0, false
		}
		found, at := 0, 0
		for full, i := range pos {
			if strings.HasPrefix(full, c) {
				found++
				at = i
			}
		}
		return at, found == 1
	}
	at := map[int]int{} // index in es -> position in commits
	var unknown []string
	for i, e := range es {
		if p, ok := where(e.Commit); ok {
			at[i] = p
			ordered = append(ordered, e)
		} else {
			apart = append(apart, e)
			c := e.Commit
			if c == "" {
				c = "none"
			}
			unknown = append(unknown, fmt.Sprintf("%s (commit %s)", format.Clip(e.ID, 32), ShortCommit(c)))
		}
	}
	// ordered is in time order; sort by the commit's place, stable.
	place := make([]int, 0, len(ordered))
	for i := range es {
		if p, ok := at[i]; ok {
			place = append(place, p)
		}
	}
	idx := make([]int, len(ordered))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return place[idx[a]] < place[idx[b]] })
	out := make([]Entry, len(ordered))
	for i, j := range idx {
		out[i] = ordered[j]
	}
	if len(unknown) > 0 {
		const show = 5
		list := unknown
		more := ""
		if len(list) > show {
			list, more = list[:show], fmt.Sprintf(" and %d more", len(unknown)-show)
		}
		warnings = append(warnings, fmt.Sprintf("%d run(s) of a commit the repository does not have, listed apart: %s%s",
			len(unknown), strings.Join(list, ", "), more))
	}
	return out, apart, warnings
}

// semver is a version's numbers and pre-release; ok is false when the
// text holds no version number.
type semver struct {
	nums []int
	pre  string
	text string
	ok   bool
}

var semverRe = regexp.MustCompile(`v?(\d+)((?:\.\d+)*)(-[0-9A-Za-z.-]+)?`)

func parseSemver(s string) semver {
	m := semverRe.FindStringSubmatch(s)
	if m == nil {
		return semver{text: s}
	}
	v := semver{text: s, ok: true, pre: strings.TrimPrefix(m[3], "-")}
	for _, part := range append([]string{m[1]}, strings.Split(strings.TrimPrefix(m[2], "."), ".")...) {
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			n = 1 << 30
		}
		v.nums = append(v.nums, n)
	}
	return v
}

func compareSemver(a, b semver) int {
	switch {
	case a.ok != b.ok:
		if a.ok {
			return -1
		}
		return 1
	case !a.ok:
		return strings.Compare(a.text, b.text)
	}
	for i := 0; i < max(len(a.nums), len(b.nums)); i++ {
		var x, y int
		if i < len(a.nums) {
			x = a.nums[i]
		}
		if i < len(b.nums) {
			y = b.nums[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.pre == b.pre:
		return 0
	case a.pre == "":
		return 1
	case b.pre == "":
		return -1
	}
	return strings.Compare(a.pre, b.pre)
}
