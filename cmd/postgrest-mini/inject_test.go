package main

import (
	"strings"
	"testing"
	"time"
)

func TestInjectCPUEnv(t *testing.T) {
	env := func(v string, ok bool) func(string) (string, bool) {
		return func(k string) (string, bool) {
			if k != injectEnv {
				return "", false
			}
			return v, ok
		}
	}
	for _, c := range []struct {
		v    string
		ok   bool
		want time.Duration
	}{{"", false, 0}, {"", true, 0}, {"250", true, 250 * time.Microsecond}, {" 40 ", true, 40 * time.Microsecond}} {
		if d, err := injectCPU(env(c.v, c.ok)); err != nil || d != c.want {
			t.Errorf("%q: %v, %v; want %v", c.v, d, err, c.want)
		}
	}
	for _, bad := range []string{"-1", "x", "1.5", "2000000"} {
		if _, err := injectCPU(env(bad, true)); err == nil || !strings.Contains(err.Error(), "PGRST_LAB_INJECT_CPU_US=") {
			t.Errorf("%q: err %v, want one naming PGRST_LAB_INJECT_CPU_US", bad, err)
		}
	}
}
