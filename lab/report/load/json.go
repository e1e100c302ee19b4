package load

import (
	"encoding/json"
	"io"
	"time"
)

// JSONReport is the JSON form of a Summary (durations in ms).
type JSONReport struct {
	Scenario      string             `json:"scenario"`
	Model         string             `json:"model"`
	TargetRate    float64            `json:"target_rate,omitempty"`
	Connections   int                `json:"connections"`
	DurationS     float64            `json:"duration_s"`
	Requests      int64              `json:"requests"`
	Rate          float64            `json:"rate"`
	Errors        int64              `json:"errors"`
	ErrorRate     float64            `json:"error_rate"`
	Dropped       int64              `json:"dropped"`
	Waited        int64              `json:"waited,omitempty"`
	LatencyMs     map[string]float64 `json:"latency_ms"`
	ServiceMs     map[string]float64 `json:"service_ms"`
	SendDelayMs   map[string]float64 `json:"send_delay_ms,omitempty"`
	Status        map[int]int64      `json:"status"`
	ErrorKinds    map[string]int64   `json:"error_kinds"`
	BytesReceived int64              `json:"bytes_received"`
	BytesSent     int64              `json:"bytes_sent"`
	MaxInFlight   int                `json:"max_in_flight"`
	Series        []JSONSecond       `json:"series,omitempty"`
}

// JSONSecond is one entry of the per-second series.
type JSONSecond struct {
	AtS      float64 `json:"at_s"`
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	Dropped  int64   `json:"dropped"`
	P50Ms    float64 `json:"p50_ms"`
	P99Ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// NewJSONReport converts s (series included when withSeries).
func NewJSONReport(s *Result, withSeries bool) JSONReport {
	j := JSONReport{Scenario: s.Scenario, Model: s.Model, TargetRate: s.TargetRate, Connections: s.Connections,
		DurationS: s.Duration.Seconds(), Requests: s.Requests, Rate: s.Rate, Errors: s.Errors,
		ErrorRate: s.ErrorRate, Dropped: s.Dropped, Waited: s.Waited, Status: s.Status, ErrorKinds: s.ErrorKinds,
		BytesReceived: s.BytesIn, BytesSent: s.BytesOut, MaxInFlight: s.MaxInFlight,
		LatencyMs: map[string]float64{"min": ms(s.Min), "mean": ms(s.Mean), "p50": ms(s.P50), "p90": ms(s.P90),
			"p95": ms(s.P95), "p99": ms(s.P99), "p99.9": ms(s.P999), "max": ms(s.Max)},
		ServiceMs: map[string]float64{"mean": ms(s.ServiceMean), "p50": ms(s.ServiceP50), "p99": ms(s.ServiceP99)},
	}
	if s.Model == "open" {
		j.SendDelayMs = map[string]float64{"p50": ms(s.SendDelayP50), "p99": ms(s.SendDelayP99), "max": ms(s.SendDelayMax)}
	}
	if withSeries {
		for _, x := range s.Series {
			j.Series = append(j.Series, JSONSecond{AtS: x.At.Seconds(), Requests: x.Requests, Errors: x.Errors,
				Dropped: x.Dropped, P50Ms: ms(x.P50), P99Ms: ms(x.P99), MaxMs: ms(x.Max)})
		}
	}
	return j
}

// JSON writes r as one indented JSON object.
func JSON(w io.Writer, r *Result, withSeries bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewJSONReport(r, withSeries))
}
