// Package report renders a run and its verdicts for people and tools:
//
//   - Terminal: aligned, benchstat-like tables per scenario, read at a glance;
//   - Markdown (report.md): setup, variants and their config changes,
//     verdicts, tables, a k6-style table (the metrics of k6's end-of-test
//     summary, as the 2020 PostgREST benchmark reported them, each as k6
//     defines it); ready to paste into docs or a blog post;
//   - HTML (report.html): self-contained, with SVG charts rendered by
//     gonum.org/v1/plot (no external URLs or scripts);
//   - JSON (verdicts.json), a benchfmt file benchstat reads (results.bench),
//     and CSV files of trials and telemetry samples.
//   - for tools that track builds over time (`lab report --format`, not
//     written into the directory): Otava writes a CSV file Apache Otava
//     reads, one row per run; BMF a run in Bencher's Metric Format JSON.
//
// WriteAll writes all files into a result directory; Load reads the
// run.json the runner wrote there. verdicts.json is the record type
// record.VerdictsV1 (VerdictsRecord).
//
// This package is the report of one run. The other subjects have a
// package each, one file per format inside:
//
//   - sweep: a sweep's section (recommendation, table, curves), and
//     profile: the profile sections, profile.json and the flame graphs;
//     the run report embeds both, so they import only format and chart;
//   - matrix: one experiment on several hosts, and calibration: the power
//     curve of a design; both build on this package (the hosts'
//     verdicts, the descriptions of a machine, load and target);
//   - history: an experiment's runs as series (`lab history`);
//   - load: what `lab load` prints;
//   - format: what every report shares, standard library only (numbers,
//     the k6-style table, Markdown escaping and wrapping, columns, report
//     files), and chart: the SVG charts' plot, palette and rendering.
package report
