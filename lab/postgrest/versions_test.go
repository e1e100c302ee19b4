package postgrest

import (
	"strings"
	"testing"
)

func TestKeysByVersion(t *testing.T) {
	lq, _ := Lookup("log-query")
	if k := lq.At("13.0.8"); k.Type != TypeEnum || k.Default != "disabled" {
		t.Errorf("log-query in 13.0.8: %s %q", k.Type, k.Default)
	}
	if k := lq.At("14.0"); k.Type != TypeBool || k.Default != "false" {
		t.Errorf("log-query in 14.0: %s %q", k.Type, k.Default)
	}
	if f := lq.Forms(); len(f) != 2 || f[0].Type != TypeBool || f[1].Type != TypeEnum {
		t.Errorf("log-query forms, newest first: %+v", f)
	}
	ll, _ := Lookup("log-level")
	if ll.At("14.17").Reloadable || !ll.At("16.0").Reloadable || ll.Reloadable {
		t.Errorf("log-level reloadable: 14.17 %v, 16.0 %v, version unknown %v; want false, true, false",
			ll.At("14.17").Reloadable, ll.At("16.0").Reloadable, ll.Reloadable)
	}
	for _, c := range []struct{ key, version, want string }{
		{"jwt-cache-max-lifetime", "14.17", "jwt-cache-max-lifetime was removed in 14.0: use jwt-cache-max-entries (the target is PostgREST 14.17)"},
		{"jwt-cache-max-entries", "13.0.8", "jwt-cache-max-entries came in PostgREST 14.0 (the target is PostgREST 13.0.8)"},
		{"server-reuseport", "14.17", "server-reuseport came in PostgREST 16.0"},
		{"client-error-verbosity", "14.17", "came in PostgREST 16.0"},
		{"url-use-legacy-target-names", "14.17", "came in PostgREST 16.0"},
		{"admin-server-unix-socket", "14.17", "came in PostgREST 16.0"},
		{"server-reuseport", "16.2", ""},
		{"jwt-cache-max-lifetime", "13.0.8", ""},
		{"jwt-cache-max-lifetime", "", ""}, // unknown version: no check
		{"no-such-key", "14.17", ""},       // not this check's business
	} {
		err := CheckIn(c.key, c.version)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckIn(%s, %q) = %v, want %q", c.key, c.version, err, c.want)
		}
	}
}

func TestSuits(t *testing.T) {
	r := Suits([]string{"db-pool", "jwt-cache-max-lifetime", "server-timing-enabled"})
	if r.From != "12.0" || r.Before != "14.0" || r.String() != "PostgREST 12.0 up to 14.0 (not 14.0)" || !r.Has("13.0.8") || r.Has("14.0") {
		t.Errorf("%+v %s", r, r)
	}
	if got := strings.Join(r.SupportedIn(), ","); got != "13.0.8" {
		t.Errorf("supported: %s", got)
	}
	if r := Suits([]string{"jwt-cache-max-lifetime", "server-reuseport"}); !r.Empty || r.String() != "no version" {
		t.Errorf("disjoint: %+v", r)
	}
	if r := Suits([]string{"db-pool"}); r.String() != "PostgREST 0.3 and later" || len(r.SupportedIn()) != len(Supported) {
		t.Errorf("db-pool: %s", r)
	}
}

func TestVersionOf(t *testing.T) {
	for in, want := range map[string]string{
		"PostgREST 14.17":                                  "14.17",
		"PostgREST 13.0.8 (a1b2c3d)":                       "13.0.8",
		"PostgREST v16.2":                                  "16.2",
		"postgrest-mini 0.1 (PostgREST-compatible subset)": "",
		"PostgREST ":                                       "",
		"":                                                 "",
	} {
		if got := VersionOf(in); got != want {
			t.Errorf("VersionOf(%q) = %q, want %q", in, got, want)
		}
	}
}
