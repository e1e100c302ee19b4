package agent

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/golden"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// goldenMessages is one example of every v1 message, requests and answers.
func goldenMessages() map[string]any {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 123456789, time.UTC)
	tel := lab.Telemetry{
		Server:   lab.Usage{CPUSeconds: 3.5, CPUUtil: 0.44, CPUPerRequestUs: 350, PeakRSS: 47 << 20, MeanRSS: 45 << 20, Samples: []lab.UsageSample{{T: 0.1, CPU: 0.4, RSS: 45 << 20}}},
		Database: lab.Usage{CPUSeconds: 2.2, CPUUtil: 0.28, CPUPerRequestUs: 220, PeakRSS: 80 << 20, MeanRSS: 79 << 20},
		DB: lab.DBStats{TransactionsPerRequest: 1, StatementsPerRequest: 2, Rollbacks: 0, Backends: 11,
			Pool: &lab.PoolStats{Size: 10, MinAvailable: 0, MaxInUse: 10, MaxWaiting: 3, MaxGauge: 13, Timeouts: 0, Scrapes: 16}},
		Events:     []lab.Event{{T: t0, Kind: lab.EventOOMKill, Source: "postgrest", Detail: "Killed process 4242 (postgrest)", PID: 4242}},
		MachineCPU: 1.7,
		SpeedRefNs: 1.65e6,
	}
	applied := lab.Applied{Changes: []lab.Change{{Where: "postgrest", Key: "db-uri", From: "tcp", To: "unix"}}, ReadyAfter: 812 * time.Millisecond}
	a := appliedV1(applied)
	return map[string]any{
		"health":          Health{OK: true, API: APIVersion, Version: "v0.3.0", Leased: true},
		"clock":           ClockReading{Received: t0.UnixNano(), Sent: t0.UnixNano() + 2000},
		"describe":        Description{Host: HostV1{Hostname: "db1", OS: "debian 12", Kernel: "6.1", CPUModel: "EPYC", CPUs: 2, MemoryBytes: 24 << 30, CgroupMode: "hybrid", PostgreSQL: "15.18", LabVersion: "v0.3.0", GoVersion: "go1.26.8"}, Target: TargetInfoV1{Binary: "/usr/bin/postgrest", Version: "PostgREST 13.0.8", Supervisor: "systemd-user", URL: "http://10.0.0.5:3000", Unit: "lab-target.service", Config: "/etc/postgrest.conf"}},
		"session-request": LeaseRequest{Driver: "client1 pid 123"},
		"session":         Lease{ID: "06dd8d5e426cc6a259da809f", LeaseMs: 10000},
		"apply-request":   ApplyRequest{Variant: VariantV1{Name: "unix", PostgREST: map[string]string{"db-uri": "unix", "db-pool": "3"}, PostgreSQL: map[string]string{"synchronous_commit": "off"}, Env: map[string]string{"GHCRTS": "-N2"}, DropIn: map[string]string{"CPUAffinity": "1"}}},
		"applied":         a,
		"window-started":  WindowStarted{ID: "w3", Started: t0.UnixNano()},
		"stop-request":    StopRequest{Requests: 10000},
		"telemetry":       telemetryV1(tel),
		"error":           ErrorBody{Error: "variant unix: restart lab-target.service: not ready after 30s", Applied: &a},
	}
}

// TestMessagesGolden: every v1 message encodes exactly as its golden file
// (a renamed field anywhere fails here), and the golden file decodes back
// to the same value; requests also pass the agent's strict decoder.
func TestMessagesGolden(t *testing.T) {
	for name, msg := range goldenMessages() {
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(msg, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			want := golden.File(t, filepath.Join("testdata", "golden", name+".json"), got)
			if !bytes.Equal(got, want) {
				t.Fatalf("message %s changed on the wire (a v1 driver or agent would not understand it):\ngot  %s\nwant %s", name, got, want)
			}
			back := reflect.New(reflect.TypeOf(msg))
			if err := decode(want, back.Interface()); err != nil {
				t.Fatalf("strict decode of the golden %s: %v", name, err)
			}
			if !reflect.DeepEqual(back.Elem().Interface(), msg) {
				t.Fatalf("golden %s decodes to %+v, want %+v", name, back.Elem().Interface(), msg)
			}
		})
	}
}

// The conversions between the domain types and the v1 messages lose
// nothing.
func TestMessagesRoundTrip(t *testing.T) {
	applied := lab.Applied{Changes: []lab.Change{{Where: "env", Key: "GHCRTS", From: "", To: "-N2"}}, ReadyAfter: 1500 * time.Millisecond}
	if got := appliedV1(applied).lab(); !reflect.DeepEqual(got, applied) {
		t.Errorf("applied: %+v, want %+v", got, applied)
	}
	tel := goldenMessages()["telemetry"].(TelemetryV1)
	if got := telemetryV1(tel.lab()); !reflect.DeepEqual(got, tel) {
		t.Errorf("telemetry: %+v, want %+v", got, tel)
	}
}
