package experiments

import (
	"embed"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

//go:embed *.toml loadtest jwt pool postgrest
var bundled embed.FS

// bundledDir is how bundled files are named in messages: their place in
// the repository.
const bundledDir = "experiments/"

// Names lists the bundled experiments, sorted.
func Names() []string {
	entries, _ := bundled.ReadDir(".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Source returns a bundled experiment's file (to show or to copy and edit).
func Source(name string) ([]byte, error) {
	b, err := bundled.ReadFile(name + ".toml")
	if err != nil {
		return nil, unknownName(name)
	}
	return b, nil
}

// Load reads an experiment by bundled name ("socket-vs-tcp") or by path
// ("./my.toml"), without checking PostgREST keys against the catalogue;
// see LoadWith.
func Load(nameOrPath string) (*lab.Experiment, error) { return LoadWith(nameOrPath, nil) }

// LoadWith is Load checking PostgREST keys with validate. An argument that
// contains a '/' or ends in ".toml" is a path; otherwise a bundled name,
// else a file of that name in the current directory. Source is set to the
// path ("" for a bundled experiment).
func LoadWith(nameOrPath string, validate KeyValidator) (*lab.Experiment, error) {
	filename, src, bundledFile, err := read(nameOrPath)
	if err != nil {
		return nil, err
	}
	e, err := parseWith(parse{file: filename, bundled: bundledFile}, src, validate, !bundledFile)
	if err != nil {
		return nil, err
	}
	if !bundledFile {
		e.Source = filename
	}
	return e, nil
}

func read(nameOrPath string) (filename string, src []byte, bundledFile bool, err error) {
	isPath := strings.ContainsRune(nameOrPath, '/') || strings.HasSuffix(nameOrPath, ".toml")
	if !isPath {
		if b, err := bundled.ReadFile(nameOrPath + ".toml"); err == nil {
			return bundledDir + nameOrPath + ".toml", b, true, nil
		}
		if _, err := os.Stat(nameOrPath); err != nil {
			return "", nil, false, unknownName(nameOrPath)
		}
	}
	b, err := readRegular(nameOrPath, MaxFileSize)
	if err != nil {
		return "", nil, false, fmt.Errorf("read experiment %s: %w", nameOrPath, err)
	}
	return nameOrPath, b, false, nil
}

func unknownName(name string) error {
	msg := fmt.Sprintf("no bundled experiment %q", name)
	if s := lab.Suggest(name, Names()); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return fmt.Errorf("%s; bundled: %s; or give a path to a .toml file", msg, strings.Join(Names(), ", "))
}
