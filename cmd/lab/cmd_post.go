package main

import (
	"context"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/report/post"
)

func init() {
	register(command{name: "post", summary: "write the benchmark article (Markdown and HTML, charts) from result directories", run: cmdPost})
}

func cmdPost(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("post", "post DIR... [--out DIR] [--title TEXT]\n\n"+
		"Writes the article of one or more runs, the first the baseline of every comparison: the headline\n"+
		"numbers, the limits and k6's table per run, comparisons in words, charts, methodology and how to\n"+
		"reproduce it, as post.md (its charts beside it as SVG) and post.html (self-contained).", stdout)
	out := fs.String("out", "post", "the `DIR` the article is written to (made if missing)")
	title := fs.String("title", "", "the article's title (default: the runs' servers and experiment)")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErrorf("post: want one result directory or more (a run's, holding run.json)")
	}
	srcs, err := post.Load(pos)
	if err != nil {
		return err
	}
	a, err := post.Build(srcs, post.Options{Title: *title})
	if err != nil {
		return err
	}
	files, err := a.Write(*out)
	if err != nil {
		return err
	}
	a.Terminal(stdout, files)
	return nil
}
