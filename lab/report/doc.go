// Package report renders a run and its verdicts for people and tools:
//
//   - Terminal: aligned, benchstat-like tables per scenario, read at a glance;
//   - Markdown (report.md): setup, variants and their config changes,
//     verdicts, tables, a k6-style table in the columns of the 2020
//     PostgREST benchmark; ready to paste into docs or a blog post;
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
// Subpackages: format (the number formatter and the k6-style table every
// report shares), load (what `lab load` prints).
package report
