package experiments

import (
	"strings"
	"testing"
)

// profile = true reaches the experiment; a wrong type or a misspelling is
// reported at its line.
func TestParseProfile(t *testing.T) {
	const base = "name = \"p\"\nscenarios = [\"GETSingle\"]\n%s\n[[variant]]\nname = \"a\"\n"
	e, err := Parse("p.toml", []byte(strings.Replace(base, "%s", "profile = true", 1)), fakeKeys)
	if err != nil || !e.Profile {
		t.Fatalf("profile = true: %+v, %v", e, err)
	}
	e, err = Parse("p.toml", []byte(strings.Replace(base, "%s", "", 1)), fakeKeys)
	if err != nil || e.Profile {
		t.Fatalf("no profile key: profile %v, %v", e.Profile, err)
	}
	for line, want := range map[string]string{
		`profile = "yes"`: `p.toml:3: profile: must be true or false, not string "yes"`,
		`profil = true`:   `p.toml:3: unknown key "profil" (did you mean "profile"?)`,
	} {
		_, err := Parse("p.toml", []byte(strings.Replace(base, "%s", line, 1)), fakeKeys)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", line, err, want)
		}
	}
}
