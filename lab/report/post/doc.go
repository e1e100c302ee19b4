// Package post writes the benchmark article (`lab post`): from one or more
// result directories alone, a self-contained page in Markdown (post.md,
// its charts as SVG files beside it) and HTML (post.html, the same text
// with the charts inline), with nothing to edit before publishing.
//
// The article follows the 2020 PostgREST benchmark thread's request: the
// headline numbers in two sentences; the thread's table in its own shape
// (k6's metrics, per host and version); the methodology (machine, cores,
// versions, configuration, data set, requests, load model, the limit's
// criterion, trials and intervals, what was excluded and why); charts
// (limits with their intervals, latency against the offered rate, CPU per
// request, memory); comparisons between runs in words, with their
// intervals and the smallest change each could see; what was tried (a
// sweep's or an A/B run's changes with their measured effects, failed
// attempts included); the 2020 comparison with its caveats; and how to
// reproduce it.
//
// Every figure is formatted once, by the run reports' own cells
// (report.LimitsCells, the k6 rows, the verdicts), and a figure that
// appears in two places reads the same in both. The HTML is the Markdown
// rendered by goldmark (raw HTML off: no string from a run.json reaches
// the page as markup), the charts and a run's sweep section put in place
// of their references.
package post
