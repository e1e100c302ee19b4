package post

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Options are what the caller may set of the article.
type Options struct {
	// Title is the article's title ("" for one made from the runs).
	Title string
}

// Article is the article as Markdown, with the charts it refers to by
// file name (Figure.File) beside it.
type Article struct {
	// Title is the article's title (unescaped).
	Title    string
	Markdown string
	Figures  []Figure
	// Summary is the summary's sentences as they appear under the title
	// (unescaped), for tests and the command's output.
	Summary []string
}

// Figure is one chart of the article and the file it is written to.
type Figure struct {
	File string
	chart.Chart
}

// Build writes the article of srcs (Load's, the first the baseline).
func Build(srcs []Source, opt Options) (*Article, error) {
	if len(srcs) == 0 {
		return nil, fmt.Errorf("post: no runs")
	}
	cols := columns(srcs)
	lim := limitRows(srcs, cols)
	cmp := comparisons(srcs)
	a := &Article{Summary: summary(srcs, lim, cmp)}
	figs, err := figures(srcs, cols)
	if err != nil {
		return nil, err
	}
	a.Figures = figs

	var buf bytes.Buffer
	b := bufio.NewWriter(&buf)
	title := opt.Title
	if title == "" {
		title = defaultTitle(srcs)
	}
	a.Title = title
	fmt.Fprintf(b, "# %s\n\n", format.MdEscape(title))
	fmt.Fprint(b, format.MdPara(format.MdEscape(strings.Join(a.Summary, " "))))
	mdLimits(b, lim)
	mdK6(b, srcs, cols)
	mdComparisons(b, cmp)
	mdTried(b, srcs)
	mdBeside2020(b, srcs, cols, lim)
	for _, f := range a.Figures {
		fmt.Fprintf(b, "![%s](%s)\n\n", format.MdEscape(f.Title), f.File)
		fmt.Fprint(b, format.MdPara(format.MdEscape(f.Caption)))
	}
	mdMethodology(b, srcs)
	mdReproduce(b, srcs)
	if err := b.Flush(); err != nil {
		return nil, err
	}
	a.Markdown = buf.String()
	return a, nil
}

// defaultTitle names the runs' servers and experiment: "PostgREST 13.0.8
// and PostgREST 14.17: limits".
func defaultTitle(srcs []Source) string {
	var names []string
	for _, s := range srcs {
		names = append(names, s.Label)
	}
	t := strings.Join(names, " and ")
	if len(names) > 2 {
		t = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return t + ": " + srcs[0].Run.Experiment.Name
}

// mdK6 is the thread's table in k6's shape: per scenario, k6's metrics, a
// column per run (and variant).
func mdK6(b *bufio.Writer, srcs []Source, cols []column) {
	var rows []report.K6Row
	for _, sc := range scenarios(srcs) {
		for _, c := range cols {
			for _, r := range report.K6Rows(c.Src.Run) {
				if r.Scenario == sc && r.Variant == c.Variant {
					r.Variant = c.Name
					rows = append(rows, r)
				}
			}
		}
	}
	format.K6Markdown(b, rows, format.Bytes)
}
