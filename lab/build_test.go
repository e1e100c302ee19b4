package lab

import "testing"

func TestParseBuild(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Build
	}{
		{"PostgREST 13.0.8", Build{Version: "13.0.8"}},
		{"PostgREST 13.0.8\n", Build{Version: "13.0.8"}},
		{"PostgREST 14.1 (9F3c2a1)", Build{Version: "14.1", Commit: "9f3c2a1"}},
		{"PostgREST 12.2.3 (a8e1f3c0d9b7e6f5a4c3b2a1908f7e6d5c4b3a29)", Build{Version: "12.2.3", Commit: "a8e1f3c0d9b7e6f5a4c3b2a1908f7e6d5c4b3a29"}},
		{"postgrest-mini 0.1 (PostgREST 13 compatible)", Build{Version: "0.1"}},
		{"PostgREST 13.0.8 (not-a-sha)", Build{Version: "13.0.8"}},
		{"", Build{}},
		{"usage: postgrest FILE", Build{}},
	} {
		if got := ParseBuild(c.in); got != c.want {
			t.Errorf("ParseBuild(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
	if l := (Build{Version: "13.0.8", Commit: "a8e1f3c0d9b7"}).Label(); l != "a8e1f3c" {
		t.Errorf("Label with a commit: %q", l)
	}
	if l := (Build{Version: "13.0.8"}).Label(); l != "13.0.8" {
		t.Errorf("Label without a commit: %q", l)
	}
}
