package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TestServerTimingOn asks real executables (real PostgREST, postgrest-mini,
// a build that does not know the key) whether they list
// server-timing-enabled, and checks that the variants get it only when
// all do, and never over a variant's own setting.
func TestServerTimingOn(t *testing.T) {
	real := labtest.PostgREST(t)
	mini := filepath.Join(filepath.Dir(buildLab(t)), "postgrest-mini")
	old := filepath.Join(t.TempDir(), "postgrest-old")
	// An "old build": its --dump-config lists keys, not server-timing-enabled.
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho 'db-pool = 10'\necho 'log-level = \"error\"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	exp := func(bins ...string) *lab.Experiment {
		e := &lab.Experiment{Name: "x"}
		for i, b := range bins {
			e.Variants = append(e.Variants, lab.Variant{Name: string(rune('a' + i)), Binary: b, Description: "d"})
		}
		return e
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		e    *lab.Experiment
		bin  string
		on   bool
		say  string
	}{
		{"real and mini", exp(real, mini), "", true, "server-timing-enabled = true in every variant"},
		{"the stack's binary", exp("", ""), real, true, "in every variant"},
		{"one old build", exp(real, old), "", false, "variant b's executable does not list server-timing-enabled"},
		{"an external target", exp("", ""), "", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			reconcile.ServerTimingOn(ctx, tc.e, tc.bin, &out)
			for _, v := range tc.e.Variants {
				got := v.PostgREST["server-timing-enabled"] == "true"
				if got != tc.on {
					t.Errorf("variant %s: server-timing-enabled set %v, want %v (%v)", v.Name, got, tc.on, v.PostgREST)
				}
				if tc.on && !strings.HasPrefix(v.Description, "d; server-timing-enabled = true") {
					t.Errorf("variant %s: description %q", v.Name, v.Description)
				}
			}
			if !strings.Contains(out.String(), tc.say) || (tc.say == "" && out.Len() > 0) {
				t.Errorf("printed %q, want %q", out.String(), tc.say)
			}
		})
	}
	t.Run("a variant sets it", func(t *testing.T) {
		e := exp(real, real)
		e.Variants[1].PostgREST = map[string]string{"server-timing-enabled": "false"}
		reconcile.ServerTimingOn(ctx, e, "", &bytes.Buffer{})
		if e.Variants[0].PostgREST != nil || e.Variants[1].PostgREST["server-timing-enabled"] != "false" {
			t.Errorf("a variant's own server-timing-enabled was overridden: %+v", e.Variants)
		}
	})
}
