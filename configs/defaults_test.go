package configs

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogueMatchesUpstreamDefaults checks the catalogue at each
// release against PostgREST's own expected --dump-config of its defaults
// at that tag (testdata/defaults, read from the source: the only check of
// v16, which cannot be built here): the same keys, and the same default
// for each (db-config is set to false by that test's config).
func TestCatalogueMatchesUpstreamDefaults(t *testing.T) {
	files, _ := filepath.Glob("testdata/defaults/v*.config")
	if len(files) < 3 {
		t.Fatalf("testdata/defaults: %d files", len(files))
	}
	for _, file := range files {
		version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(file), "v"), ".config")
		t.Run(version, func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			dumped := map[string]string{}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if m := dumpLine.FindStringSubmatch(sc.Text()); m != nil {
					dumped[m[1]] = m[2]
				}
			}
			keys := current(version)
			for name := range keys {
				if _, ok := dumped[name]; !ok {
					t.Errorf("the catalogue has %s in %s; PostgREST's defaults at v%s do not", name, version, version)
				}
			}
			for name, v := range dumped {
				k, ok := keys[name]
				switch {
				case !ok:
					t.Errorf("PostgREST v%s dumps %s; the catalogue does not have it for this version", version, name)
				case name == "db-config" || name == "db-uri":
				case name == "jwt-role-claim-key":
					// Printed as parsed: a JSPath before 16 (".\"role\""), a JSON
					// Path from 16 ("$$.role": $ doubled in the config syntax).
					want := map[bool]string{false: `".\"role\""`, true: `"$$.role"`}[strings.HasPrefix(k.Default, "$")]
					if v != want {
						t.Errorf("%s: PostgREST v%s dumps %s, the catalogue's default %q prints %s", name, version, v, k.Default, want)
					}
				case k.DefaultOf != "":
					if v != dumped[k.DefaultOf] {
						t.Errorf("%s: %s, want the value of %s (%s)", name, v, k.DefaultOf, dumped[k.DefaultOf])
					}
				case k.Default == "":
					if v != `""` {
						t.Errorf("%s: PostgREST v%s's default is %s, the catalogue has none", name, version, v)
					}
				default:
					if r := render(k, k.Default); r != v {
						t.Errorf("%s: PostgREST v%s's default is %s, the catalogue's %s", name, version, v, r)
					}
				}
			}
		})
	}
}
