package post

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Source is one result directory the article is written from.
type Source struct {
	Dir string
	Run *lab.Run
	// Label names the run in the article: its server's version, its
	// host's name when the runs' hosts differ, or its start when neither
	// tells the runs apart.
	Label string
}

// Load reads each directory's run.json, in the order given (the first is
// the baseline of every comparison), and labels the runs.
func Load(dirs []string) ([]Source, error) {
	var out []Source
	for _, d := range dirs {
		run, err := record.ReadDir(d)
		if err != nil {
			return nil, fmt.Errorf("post: %w", err)
		}
		out = append(out, Source{Dir: d, Run: run})
	}
	Label(out)
	return out, nil
}

// Label names each source (Source.Label) so that no two share a name:
// the server's version ("PostgREST 14.17"), with the host when the hosts
// differ, or with the run's start when that still leaves two alike.
func Label(srcs []Source) {
	hosts := map[string]bool{}
	for _, s := range srcs {
		hosts[s.Run.Host.Hostname] = true
	}
	for i := range srcs {
		r := srcs[i].Run
		l := serverName(r)
		if len(hosts) > 1 {
			l += " on " + r.Host.Hostname
		}
		srcs[i].Label = l
	}
	seen := map[string]int{}
	for _, s := range srcs {
		seen[s.Label]++
	}
	for i := range srcs {
		if seen[srcs[i].Label] > 1 {
			srcs[i].Label += ", " + srcs[i].Run.Started.UTC().Format("2006-01-02 15:04")
		}
	}
	for i := range srcs { // the same minute: their order
		if n := count(srcs, srcs[i].Label); n > 1 {
			srcs[i].Label += fmt.Sprintf(" (#%d)", i+1)
		}
	}
}

func count(srcs []Source, label string) int {
	n := 0
	for _, s := range srcs {
		if s.Label == label {
			n++
		}
	}
	return n
}

// serverName is the run's server as people name it: "PostgREST 14.17",
// "postgrest-mini 0.1", or the binary's file name without a version.
func serverName(r *lab.Run) string {
	v := strings.TrimSpace(r.Target.Version)
	if i := strings.Index(v, " ("); i > 0 {
		v = v[:i]
	}
	if v != "" {
		return v
	}
	b := r.Target.Binary
	if i := strings.LastIndexByte(b, '/'); i >= 0 {
		b = b[i+1:]
	}
	if b == "" {
		return "the target"
	}
	return b
}

// column is one measured configuration the tables show: a variant of a
// source (a run of one variant is one column, named by its source).
type column struct {
	Src     *Source
	Variant string
	Name    string
}

// columns are every source's variants in order, named "<label>" for a
// run of one variant and "<label>, <variant>" otherwise.
func columns(srcs []Source) []column {
	var out []column
	for i := range srcs {
		s := &srcs[i]
		names := stats.VariantNames(s.Run)
		for _, v := range names {
			c := column{Src: s, Variant: v, Name: s.Label}
			if len(names) > 1 {
				c.Name += ", " + v
			}
			out = append(out, c)
		}
	}
	return out
}

// scenarios are the scenarios of every source, in the first's order, then
// those only later ones ran.
func scenarios(srcs []Source) []string {
	var out []string
	for _, s := range srcs {
		for _, sc := range stats.ScenarioNames(s.Run) {
			if !slices.Contains(out, sc) {
				out = append(out, sc)
			}
		}
	}
	return out
}
