package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func f(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
func i64(v int64) string { return strconv.FormatInt(v, 10) }

// trialColumns are the columns of trials.csv.
var trialColumns = []string{"seq", "variant", "scenario", "rep", "start", "end", "ready_after_ms", "model",
	"requests", "errors", "dropped", "seconds", "rate", "asked_rate", "connections",
	"lat_min_ms", "lat_mean_ms", "lat_p50_ms", "lat_p90_ms", "lat_p95_ms", "lat_p99_ms", "lat_p999_ms", "lat_max_ms",
	"svc_p50_ms", "svc_p99_ms", "bytes_in", "bytes_out",
	"server_cpu_s", "server_cpu_util", "server_cpu_us_per_req", "server_peak_rss", "server_mean_rss",
	"db_cpu_s", "db_cpu_util", "db_cpu_us_per_req", "tx_per_req", "statements_per_req", "rollbacks",
	"events", "error"}

// TrialsCSV writes trials.csv: one row per trial, failed trials included.
func TrialsCSV(w io.Writer, run *lab.Run) error {
	cw := csv.NewWriter(w)
	cw.Write(trialColumns)
	for _, t := range run.Trials {
		l := t.Load
		var evs []string
		for _, e := range t.Events {
			evs = append(evs, string(e.Kind))
		}
		cw.Write([]string{
			strconv.Itoa(t.Seq), t.Variant, t.Scenario, strconv.Itoa(t.Rep), t.Start.UTC().Format(time.RFC3339Nano), t.End.UTC().Format(time.RFC3339Nano),
			f(float64(t.ReadyAfter) / 1e6), string(l.Model),
			i64(l.Requests), i64(l.Errors), i64(l.Dropped), f(l.Seconds), f(l.Rate), f(l.AskedRate), strconv.Itoa(l.Connections),
			f(l.LatencyMs.Min), f(l.LatencyMs.Mean), f(l.LatencyMs.P50), f(l.LatencyMs.P90), f(l.LatencyMs.P95), f(l.LatencyMs.P99), f(l.LatencyMs.P999), f(l.LatencyMs.Max),
			f(l.ServiceMs.P50), f(l.ServiceMs.P99), i64(l.BytesIn), i64(l.BytesOut),
			f(t.Server.CPUSeconds), f(t.Server.CPUUtil), f(t.Server.CPUPerRequestUs), strconv.FormatUint(t.Server.PeakRSS, 10), strconv.FormatUint(t.Server.MeanRSS, 10),
			f(t.Database.CPUSeconds), f(t.Database.CPUUtil), f(t.Database.CPUPerRequestUs),
			f(t.DB.TransactionsPerRequest), f(t.DB.StatementsPerRequest), i64(t.DB.Rollbacks),
			strings.Join(evs, ";"), t.Error,
		})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("trials.csv: %w", err)
	}
	return nil
}

// TelemetryCSV writes telemetry.csv: one row per usage sample of the
// server and the database, with the trial it belongs to. run_s is the time
// since the run started, t_s since the trial started.
func TelemetryCSV(w io.Writer, run *lab.Run) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"seq", "variant", "scenario", "rep", "service", "run_s", "t_s", "cpu_cores", "rss_bytes"})
	for _, t := range run.Trials {
		off := t.Start.Sub(run.Started).Seconds()
		for _, svc := range []struct {
			name string
			ss   []lab.UsageSample
		}{{"server", t.Server.Samples}, {"database", t.Database.Samples}} {
			for _, s := range svc.ss {
				cw.Write([]string{strconv.Itoa(t.Seq), t.Variant, t.Scenario, strconv.Itoa(t.Rep), svc.name,
					strconv.FormatFloat(off+s.T, 'f', 3, 64), f(s.T), f(s.CPU), strconv.FormatUint(s.RSS, 10)})
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("telemetry.csv: %w", err)
	}
	return nil
}
