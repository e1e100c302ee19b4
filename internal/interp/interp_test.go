package interp

import (
	"errors"
	"testing"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"A": "x", "B": "$(A)"}
	lookup := func(n string) (string, error) {
		if v, ok := env[n]; ok {
			return v, nil
		}
		return "", errors.New("no " + n)
	}
	for in, want := range map[string]string{
		"plain": "plain", "$(A)": "x", "a$(A)b$(A)": "axbx", "$$(A)": "$(A)", "$$$$": "$$", "$(B)": "$(A)",
	} {
		if got, err := Expand(in, lookup); err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, kind := range map[string]Kind{"$(A": Unterminated, "x$()": EmptyName, "$A": LoneDollar, "a$": LoneDollar} {
		_, err := Expand(in, lookup)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Kind != kind {
			t.Errorf("Expand(%q): %v, want kind %v", in, err, kind)
		}
		if Check(in) == nil {
			t.Errorf("Check(%q) passed", in)
		}
	}
	if _, err := Expand("$(C)", lookup); err == nil || err.Error() != "no C" {
		t.Errorf("lookup error: %v", err)
	}
	if Check("$(C)") != nil {
		t.Error("Check looked C up")
	}
}
