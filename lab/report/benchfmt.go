package report

import (
	"fmt"
	"io"
	"regexp"
	"strconv"

	"golang.org/x/perf/benchfmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Bench writes the run in the Go benchmark format (results.bench), one
// line per valid trial, so that benchstat can read it:
//
//	BenchmarkGETSingle/variant=unix 25750 388350 ns/op 2575 req/s 3.81 p50-ms ...
//
// Iterations are the trial's requests; ns/op is 1e9/throughput. Compare
// variants with `benchstat -col /variant results.bench`.
func Bench(w io.Writer, run *lab.Run) error {
	bw := benchfmt.NewWriter(w)
	cfg := []benchfmt.Config{
		{Key: "experiment", Value: []byte(run.Experiment.Name), File: true},
		{Key: "target", Value: []byte(orNone(run.Target.Version)), File: true},
		{Key: "reference", Value: []byte(strconv.FormatBool(run.Target.Reference)), File: true},
		{Key: "host", Value: []byte(run.Host.Hostname), File: true},
		{Key: "cpu", Value: []byte(run.Host.CPUModel), File: true},
		{Key: "postgresql", Value: []byte(run.Host.PostgreSQL), File: true},
		{Key: "load", Value: []byte(LoadDesc(run.Experiment.Load)), File: true},
	}
	for _, t := range run.Trials {
		if t.Error != "" || t.Load.Requests == 0 || t.Load.Rate <= 0 {
			continue
		}
		res := &benchfmt.Result{
			Config: cfg,
			Name:   benchfmt.Name("Benchmark" + benchName(t.Scenario) + "/variant=" + benchName(t.Variant)),
			Iters:  int(t.Load.Requests),
			Values: benchValues(t),
		}
		if err := bw.Write(res); err != nil {
			return fmt.Errorf("results.bench: trial %d: %w", t.Seq, err)
		}
	}
	return nil
}

// benchValues are a trial's metrics with units benchstat accepts (no spaces).
func benchValues(t lab.Trial) []benchfmt.Value {
	vs := []benchfmt.Value{{Value: 1e9 / t.Load.Rate, Unit: "ns/op"}}
	units := map[string]string{"rate": "req/s", "p50": "p50-ms", "p99": "p99-ms", "min": "min-ms",
		"server_cpu": "server-µs/req", "db_cpu": "db-µs/req", "peak_rss": "peak-RSS-MB", "errors": "errors-%"}
	for _, m := range lab.Metrics {
		u, ok := units[m.Name]
		if !ok {
			continue
		}
		if v, ok := m.Of(t); ok {
			vs = append(vs, benchfmt.Value{Value: v, Unit: u})
		}
	}
	return vs
}

var nonName = regexp.MustCompile(`[\s/=]+`)

// benchName makes a name usable in a benchmark name (no spaces, / or =).
func benchName(s string) string {
	if s == "" {
		return "_"
	}
	return nonName.ReplaceAllString(s, "_")
}
