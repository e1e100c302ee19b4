package alert_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"github.com/pgrst-lab/pgrst-lab/lab/report/alert"
	"github.com/pgrst-lab/pgrst-lab/store"
)

func TestMain(m *testing.M) { labtest.Main(m) }

// receiver is a webhook on loopback that keeps the messages it was posted
// and answers status.
type receiver struct {
	mu     sync.Mutex
	got    []alert.Message
	status int
	srv    *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{status: http.StatusOK}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var m alert.Message
		if err := json.NewDecoder(req.Body).Decode(&m); err != nil || req.Method != http.MethodPost ||
			req.Header.Get("Content-Type") != "application/json" || req.URL.Path != "/services/T0/B0/secret-token" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.status != http.StatusOK {
			http.Error(w, "no_service", r.status)
			return
		}
		r.got = append(r.got, m)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) url() string { return r.srv.URL + "/services/T0/B0/secret-token" }

func (r *receiver) messages() []alert.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]alert.Message(nil), r.got...)
}

func (r *receiver) answer(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status = status
}

// stepHistory is a synthetic series with one step, -10 % throughput of
// unix at run 8 (a regression), analysed afresh as each lab track does.
func stepHistory(t *testing.T) *history.History {
	t.Helper()
	h, err := history.Analyse("socket-vs-tcp", historytest.StepRuns(12, 7, -0.10), history.Options{Metrics: []string{"rate"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(h.Alertable()); n != 1 {
		t.Fatalf("%d alertable change points, want the step's one", n)
	}
	return h
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), labtest.NewDB(t).TCPURI("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// TestAlertSentOnce: a new change point is posted to a real webhook on
// loopback (Slack's text and the change's fields) and written as an issue
// body; the next lab track (a fresh history of the same runs, the same
// store) sends nothing and removes the stale issue body. The webhook's
// secret path is never printed.
func TestAlertSentOnce(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	r := newReceiver(t)
	issue := filepath.Join(t.TempDir(), "issue.md")
	var out bytes.Buffer
	o := alert.Options{Webhook: r.url(), IssueFile: issue, Ledger: st, Out: &out}

	h := stepHistory(t)
	c := h.Alertable()[0].Change
	if err := alert.Send(ctx, h, o); err != nil {
		t.Fatal(err)
	}
	got := r.messages()
	if len(got) != 1 {
		t.Fatalf("%d messages posted, want 1", len(got))
	}
	m := got[0]
	if m.ID != c.ID || m.Kind != "regression" || m.Metric != "rate" || m.Scenario != "GETSingle" || m.Variant != "unix" ||
		m.ChangePct > -8 || m.ChangePct < -12 || m.Before != c.Before.Commit || m.After != c.After.Commit || m.P <= 0 || m.P > 0.001 ||
		m.MDEPct <= 0 || m.CILowPct == nil {
		t.Errorf("message %+v: want the step's fields (id %s, %s..%s)", m, c.ID, c.Before.Commit, c.After.Commit)
	}
	for _, want := range []string{"regression -", "% of throughput in socket-vs-tcp / GETSingle / unix", c.Before.Commit[:7] + " and " + c.After.Commit[:7],
		"lab history ack " + c.ID} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text %q lacks %q", m.Text, want)
		}
	}
	body, err := os.ReadFile(issue)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 new change point(s) in socket-vs-tcp", fmt.Sprintf("| %+.1f%% |", m.ChangePct), "`lab track` found", "| regression | GETSingle / unix / throughput |",
		"`" + c.Before.Commit[:7] + "` .. `" + c.After.Commit[:7] + "`", "`" + c.ID + "`"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("issue body lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(out.String(), "secret-token") || !strings.Contains(out.String(), "sent to the webhook http://127.0.0.1") {
		t.Errorf("output: want the webhook named without its path:\n%s", out.String())
	}

	out.Reset()
	if err := alert.Send(ctx, stepHistory(t), o); err != nil {
		t.Fatal(err)
	}
	if n := len(r.messages()); n != 1 {
		t.Errorf("the second lab track posted again: %d messages", n)
	}
	if _, err := os.Stat(issue); !os.IsNotExist(err) {
		t.Errorf("the second lab track left an issue body (%v): it would be filed twice", err)
	}
	if !strings.Contains(out.String(), "0 of 1 change point(s) beyond the MDE sent") {
		t.Errorf("second send:\n%s", out.String())
	}
}

// TestAlertNotSentAfterAck: a change point acknowledged (found in the
// stored runs' history, as `lab history ack` finds it) is not sent, and
// is marked in the history; ids that name nothing are refused.
func TestAlertNotSentAfterAck(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	r := newReceiver(t)
	runs := historytest.StepRuns(12, 7, -0.10)
	stored := func(context.Context) ([]history.Run, error) { return runs, nil }
	id := stepHistory(t).Alertable()[0].Change.ID

	if _, _, err := alert.Acknowledge(ctx, st, "0123456789ab", "x", stored, history.Options{}); err == nil || !strings.Contains(err.Error(), "no change point has this id") {
		t.Errorf("ack of an unknown id: %v", err)
	}
	if _, _, err := alert.Acknowledge(ctx, st, "3f2a", "x", stored, history.Options{}); err == nil || !strings.Contains(err.Error(), "12 hex digits") {
		t.Errorf("ack of a short id: %v", err)
	}
	if _, _, err := alert.Acknowledge(ctx, st, id, " ", stored, history.Options{}); err == nil || !strings.Contains(err.Error(), "--note") {
		t.Errorf("ack without a note: %v", err)
	}
	k, _, err := alert.Acknowledge(ctx, st, strings.ToUpper(id), "the new JSON encoder, expected", stored, history.Options{})
	if err != nil || k.ID() != id || k.Metric != "rate" || k.Variant != "unix" {
		t.Fatalf("ack: %+v, %v", k, err)
	}

	issue := filepath.Join(t.TempDir(), "issue.md")
	var out bytes.Buffer
	h := stepHistory(t)
	if err := alert.Send(ctx, h, alert.Options{Webhook: r.url(), IssueFile: issue, Ledger: st, Out: &out}); err != nil {
		t.Fatal(err)
	}
	if n := len(r.messages()); n != 0 {
		t.Errorf("%d messages posted about an acknowledged change point", n)
	}
	if _, err := os.Stat(issue); !os.IsNotExist(err) {
		t.Errorf("an issue body was written about an acknowledged change point (%v)", err)
	}
	if a := h.Changes()[0].Change.Ack; a == nil || a.Note != "the new JSON encoder, expected" {
		t.Errorf("the history does not mark the acknowledgement: %+v", a)
	}
}

// TestAlertFailureRetried: a webhook that fails (HTTP 500) or does not
// answer in time fails the send with an error naming it without its
// secret path; the change point is not recorded as sent, and the next
// send, answered, posts it.
func TestAlertFailureRetried(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	r := newReceiver(t)
	r.answer(http.StatusInternalServerError)
	var out bytes.Buffer
	o := alert.Options{Webhook: r.url(), Ledger: st, Out: &out}
	err := alert.Send(ctx, stepHistory(t), o)
	if err == nil || !strings.Contains(err.Error(), "webhook "+r.srv.URL+"/<redacted>: change point") ||
		!strings.Contains(err.Error(), "answered 500") || strings.Contains(err.Error(), "secret-token") {
		t.Errorf("error %v: want the status and the webhook without its path", err)
	}

	release := make(chan struct{})
	stuck := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body) // then the server sees the client hang up
		select {
		case <-req.Context().Done():
		case <-release:
		}
	}))
	defer stuck.Close()
	defer close(release)
	o.Webhook, o.Timeout = stuck.URL+"/hook/secret-token", 300*time.Millisecond
	err = alert.Send(ctx, stepHistory(t), o)
	if err == nil || !strings.Contains(err.Error(), "no answer within 300ms") || strings.Contains(err.Error(), "secret-token") {
		t.Errorf("timeout: %v", err)
	}

	r.answer(http.StatusOK)
	o.Webhook, o.Timeout = r.url(), 0
	if err := alert.Send(ctx, stepHistory(t), o); err != nil {
		t.Fatal(err)
	}
	if n := len(r.messages()); n != 1 {
		t.Errorf("%d messages after the webhook answered again, want the one not sent before", n)
	}
}
