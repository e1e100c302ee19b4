package experiments

import (
	"slices"
	"testing"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"PGRST_RELEASE": "/usr/bin/postgrest", "N": "2"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }

	e, err := Load("binaries")
	if err != nil {
		t.Fatal(err)
	}
	err = Expand(e, lookup)
	want := `experiments/binaries.toml: variant[1].binary: "$(PGRST_BRANCH)": environment variable PGRST_BRANCH is not set`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if e.Variants[0].Binary != "$(PGRST_RELEASE)" {
		t.Errorf("a failed Expand changed the experiment: %q", e.Variants[0].Binary)
	}

	env["PGRST_BRANCH"] = "/home/me/postgrest"
	e.Variants[1].Args = []string{"+RTS", "-N$(N)", "-RTS", "$$HOME"}
	if err := Expand(e, lookup); err != nil {
		t.Fatal(err)
	}
	if e.Variants[0].Binary != "/usr/bin/postgrest" || e.Variants[1].Binary != "/home/me/postgrest" {
		t.Errorf("binaries: %q, %q", e.Variants[0].Binary, e.Variants[1].Binary)
	}
	if got := e.Variants[1].Args; !slices.Equal(got, []string{"+RTS", "-N2", "-RTS", "$HOME"}) {
		t.Errorf("args: %q", got)
	}
	for bad, msg := range map[string]string{
		"$(X":  `"$(X": unterminated $(`,
		"$X":   `"$X": a literal $ must be written $$ (a variable: $(NAME))`,
		"a$()": `"a$()": empty variable name $()`,
	} {
		if _, err := expand(bad, lookup); err == nil || err.Error() != msg {
			t.Errorf("expand(%q): %v, want %s", bad, err, msg)
		}
	}
}
