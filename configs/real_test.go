package configs

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// An unreachable database: --dump-config tries it once and dumps anyway.
const dumpDBURI = `db-uri = "postgres://nobody@127.0.0.1:1/none"` + "\n"

var dumpLine = regexp.MustCompile(`^([a-z][a-z0-9.-]*) = (.*)$`)

// dumpConfig runs `postgrest --dump-config` on a config and returns the
// dumped keys with their values as written (strings quoted).
func dumpConfig(t *testing.T, bin, conf string) map[string]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.conf")
	if err := os.WriteFile(path, []byte(dumpDBURI+conf), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "--dump-config", path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s --dump-config with\n%s: %v\n%s", bin, conf, err, stderr.Bytes())
	}
	out := map[string]string{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		if m := dumpLine.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]] = m[2]
		}
	}
	if len(out) < 20 {
		t.Fatalf("--dump-config printed %d keys:\n%s", len(out), stdout.Bytes())
	}
	return out
}

func realVersion(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "PostgREST ")
	if !ok {
		t.Fatalf("--version: %q", out)
	}
	return strings.Fields(v)[0]
}

// current lists the catalogue's keys of version v that --dump-config shows:
// not aliases, not app.settings.*.
func current(v string) map[string]postgrest.Key {
	m := map[string]postgrest.Key{}
	for _, k := range postgrest.Keys() {
		if k.In(v) && k.AliasOf == "" && !strings.Contains(k.Name, "*") {
			m[k.Name] = k.At(v)
		}
	}
	return m
}

// render writes a catalogue value in the config syntax for its type.
func render(k postgrest.Key, raw string) string {
	v, err := ParseValue(k.Name, raw)
	if err != nil {
		panic(fmt.Sprintf("%s = %s: %v", k.Name, raw, err))
	}
	return v.Render()
}

// TestCatalogueMatchesRealPostgREST checks the catalogue against each real
// binary's --dump-config (13.0.8 and 14.17 in CI): the same keys for its
// version, the same defaults (a config that writes out every catalogue
// default dumps exactly as one that sets nothing), every enum value
// accepted, every alias read as its key.
func TestCatalogueMatchesRealPostgREST(t *testing.T) {
	labtest.EachPostgREST(t, func(t *testing.T, real labtest.Real) { catalogueMatches(t, real.Path) })
}

func catalogueMatches(t *testing.T, bin string) {
	version := realVersion(t, bin)
	keys := current(version)
	bare := dumpConfig(t, bin, "")
	for name := range keys {
		if _, ok := bare[name]; !ok {
			t.Errorf("catalogue has %s in PostgREST %s, --dump-config does not (fix Since/Removed)", name, version)
		}
	}
	for name := range bare {
		if _, ok := keys[name]; !ok {
			t.Errorf("PostgREST %s dumps %s, the catalogue does not have it for this version", version, name)
		}
	}

	var defaults strings.Builder
	for _, k := range keys {
		switch {
		case k.DefaultOf != "":
			if bare[k.Name] != bare[k.DefaultOf] {
				t.Errorf("%s: default %s, want the value of %s (%s)", k.Name, bare[k.Name], k.DefaultOf, bare[k.DefaultOf])
			}
		case k.Default == "":
			if bare[k.Name] != `""` {
				t.Errorf("%s: PostgREST's default is %s, the catalogue has none", k.Name, bare[k.Name])
			}
		case k.Name != "db-uri":
			fmt.Fprintf(&defaults, "%s = %s\n", k.Name, render(k, k.Default))
		}
	}
	explicit := dumpConfig(t, bin, defaults.String())
	for name, v := range bare {
		if explicit[name] != v {
			t.Errorf("%s: catalogue default %q, PostgREST's is %s (set explicitly it dumps %s)", name, keys[name].Default, v, explicit[name])
		}
	}

	for _, k := range keys {
		for _, val := range k.Values {
			got := dumpConfig(t, bin, fmt.Sprintf("%s = %s\n", k.Name, render(k, val)))
			if got[k.Name] != strconv.Quote(val) {
				t.Errorf("%s = %s: PostgREST dumps %s", k.Name, val, got[k.Name])
			}
		}
	}

	for _, k := range postgrest.Keys() {
		if k.AliasOf == "" || !k.In(version) {
			continue
		}
		k = k.At(version)
		val := map[postgrest.Type]string{postgrest.TypeInt: "7", postgrest.TypeBool: "true", postgrest.TypeString: "x_alias", postgrest.TypeList: "x_alias"}[k.Type]
		if k.AliasOf == "jwt-role-claim-key" {
			val = ".x_alias" // a JSPath
		}
		got := dumpConfig(t, bin, fmt.Sprintf("%s = %s\n", k.Name, render(k, val)))
		want := render(keys[k.AliasOf], val)
		if k.AliasOf == "jwt-role-claim-key" {
			want = `".\"x_alias\""` // PostgREST prints the JSPath it parsed
		}
		if got[k.AliasOf] != want {
			t.Errorf("alias %s = %s: PostgREST dumps %s = %s, want %s", k.Name, val, k.AliasOf, got[k.AliasOf], want)
		}
	}
}

// TestExampleConfigKnown: every key of `postgrest --example` (commented
// out or not) is in the catalogue for the binary's version, with the
// example's value as its default where the example sets one.
func TestExampleConfigKnown(t *testing.T) {
	labtest.EachPostgREST(t, func(t *testing.T, real labtest.Real) { exampleKnown(t, real.Path) })
}

func exampleKnown(t *testing.T, bin string) {
	version := realVersion(t, bin)
	out, err := exec.Command(bin, "--example").Output()
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^(# )?([a-z][a-z0-9-]*) = (.*)$`)
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n++
		k, ok := postgrest.Lookup(m[2])
		if !ok || !k.In(version) {
			t.Errorf("--example has %s, the catalogue does not have it for %s", m[2], version)
			continue
		}
		k = k.At(version)
		if m[1] == "" && m[2] != "db-uri" && k.Default != "" && render(k, k.Default) != m[3] {
			t.Errorf("--example sets %s = %s, the catalogue's default is %s", m[2], m[3], render(k, k.Default))
		}
	}
	if n < 20 {
		t.Fatalf("--example: %d keys found:\n%s", n, out)
	}
}
