package agent

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// hostileText is what a compromised or buggy agent could put in any
// string: a terminal escape that clears the screen, a Markdown table
// break, a line break, HTML, and 10 kB of filler.
var hostileText = "evil\x1b[2J|cell\n<script>alert(1)</script>[x](http://x)" + strings.Repeat("A", 10<<10)

// TestClientCleansHostileAnswers runs the client against an agent (a real
// HTTP server on loopback) whose every string is hostile: describe, an
// apply that fails with changes made, a health answer and a telemetry
// window. What the client returns has no control characters and no string
// longer than textsafe.MaxText runes, whatever the answer.
func TestClientCleansHostileAnswers(t *testing.T) {
	h := hostileText
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var body any
		status := http.StatusOK
		switch r.Method + " " + r.URL.Path {
		case "GET /v1/describe":
			body = Description{Host: HostV1{Hostname: h, HostID: h, OS: h, Kernel: h, CPUModel: h, CPUs: 2, PostgreSQL: h, LabVersion: h},
				Target: TargetInfoV1{Binary: h, Version: h, Supervisor: h, URL: "http://127.0.0.1:1", Config: h}}
		case "GET /v1/health":
			body = Health{OK: true, API: "v1", Version: h}
		case "POST /v1/apply":
			status = http.StatusInternalServerError
			body = ErrorBody{Error: h, Applied: &AppliedV1{Changes: []ChangeV1{{Where: h, Key: h, From: h, To: h}}}}
		case "POST /v1/windows":
			body = WindowStarted{ID: "w1", Started: time.Now().UnixNano()}
		case "POST /v1/windows/w1/stop":
			body = TelemetryV1{Events: []EventV1{{T: time.Now(), Kind: h, Source: h, Detail: h}}}
		case "DELETE /v1/windows/w1":
			body = struct{}{}
		default:
			status, body = http.StatusNotFound, ErrorBody{Error: h}
		}
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL, ClientOptions{Token: []byte("token-0123456789abcdef"), RetryFor: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var got []string // every string the client handed back
	host, target, err := c.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, host.Hostname, host.HostID, host.OS, host.Kernel, host.CPUModel, host.PostgreSQL, host.LabVersion,
		target.Binary, target.Version, target.Supervisor, target.Config)
	health, err := c.Health(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, health.Version)
	applied, err := c.Apply(ctx, lab.Variant{Name: "v"})
	if err == nil || len(applied.Changes) != 1 {
		t.Fatalf("apply: %v, %+v; want the agent's error and its one change", err, applied)
	}
	ch := applied.Changes[0]
	got = append(got, err.Error(), ch.Where, ch.Key, ch.From, ch.To)
	win, err := c.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tel, err := win.Stop(ctx, 1)
	if err != nil || len(tel.Events) != 1 {
		t.Fatalf("telemetry: %v, %+v", err, tel)
	}
	got = append(got, string(tel.Events[0].Kind), tel.Events[0].Source, tel.Events[0].Detail)

	for i, s := range got {
		if strings.ContainsAny(s, "\x1b\n\r") {
			t.Errorf("string %d keeps an escape or line break: %q", i, s[:min(len(s), 60)])
		}
		// An error adds the method and path to the agent's words.
		if n := utf8.RuneCountInString(s); n > textsafe.MaxText+100 {
			t.Errorf("string %d is %d runes, want about %d at most", i, n, textsafe.MaxText)
		}
		if !strings.HasPrefix(strings.TrimPrefix(s, "POST /apply: agent: "), "evil|cell <script>") {
			t.Errorf("string %d: %q, want the hostile text cleaned, not dropped", i, s[:min(len(s), 60)])
		}
	}
}
