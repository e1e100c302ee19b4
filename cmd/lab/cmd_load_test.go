package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// `lab load` end to end against a loopback server: the custom request
// (method, header, body) reaches it, --json reports what was measured, and
// wrong flag combinations are usage errors that name the flags.
func TestLoadCommand(t *testing.T) {
	var hits atomic.Int64
	var lastHeader, lastBody atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		lastHeader.Store(r.Header.Get("Prefer"))
		b := make([]byte, 64)
		n, _ := r.Body.Read(b)
		lastBody.Store(string(b[:n]))
		w.WriteHeader(201)
	}))
	defer srv.Close()
	out, err := runLab(t, "load", "--url", srv.URL+"/employee", "--method", "POST", "--header", "Prefer: tx=rollback",
		"--body", `{"a":1}`, "--connections", "2", "--duration", "300ms", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Requests int64 `json:"requests"`
		Errors   int64 `json:"errors"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if rep.Requests == 0 || rep.Errors != 0 || hits.Load() < rep.Requests {
		t.Fatalf("report %+v, server saw %d", rep, hits.Load())
	}
	if lastHeader.Load() != "tx=rollback" || lastBody.Load() != `{"a":1}` {
		t.Fatalf("request arrived as Prefer %q body %q", lastHeader.Load(), lastBody.Load())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--url", srv.URL, "--rate", "10", "--connections", "2"}, "exclude each other"},
		{[]string{"--url", srv.URL}, "--rate N or --connections N"},
		{[]string{"--url", srv.URL, "--rate", "10", "--cpus", "x"}, "--cpus"},
		{[]string{"--url", srv.URL, "--rate", "10", "--scenario", "GETSingle", "--method", "POST"}, "--method apply only without --scenario"},
		{[]string{"--url", srv.URL, "--connections", "2", "--ramp", "10,20"}, "--ramp needs the open model"},
		{[]string{"--url", srv.URL, "--rate", "10", "--ramp", "10,x"}, `"x" is not a positive rate`},
	} {
		if _, err := runLab(t, append([]string{"load"}, c.args...)...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("load %v: %v, want an error with %q", c.args, err, c.want)
		}
	}
}
