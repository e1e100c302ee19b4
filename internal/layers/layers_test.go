package layers

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCatchesAnUpwardImport holds Check to its rules on a small graph.
func TestCheckCatchesAnUpwardImport(t *testing.T) {
	graph := map[string][]string{
		"lab":                       {"lab/capability", "internal/median"},
		"lab/stats":                 {"lab"},
		"lab/report":                {"lab/stats", "lab/session"},  // up a layer
		"lab/session":               {"lab/report", "experiments"}, // an adapter
		"configs":                   {"loadgen"},                   // adapter → adapter
		"systemd/supervisor/direct": {"systemd", "lab/capability"}, // a system adapter → facts
		"loadgen/trial":             {"loadgen", "lab"},            // its own room's package
		"host/reconcile":            {"configs", "systemd"},
		"cmd/lab":                   {"lab/session", "host/reconcile"},
		"newroom/whatever":          nil,
	}
	var got []string
	for _, v := range Check(Rooms, graph) {
		got = append(got, v.From+" → "+v.To)
	}
	want := []string{
		"configs → loadgen",
		"lab/report → lab/session",
		"lab/session → experiments",
		"newroom/whatever → ",
		"systemd/supervisor/direct → lab/capability",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestModuleKeepsItsLayers runs go list -deps over the module and fails on
// every import that runs up a layer or between adapters, and on a package
// no room claims.
func TestModuleKeepsItsLayers(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool on PATH: %v", err)
	}
	mod, err := exec.Command(goTool, "list", "-m", "-f", "{{.Path}} {{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	modPath, modDir, _ := strings.Cut(strings.TrimSpace(string(mod)), " ")
	cmd := exec.Command(goTool, "list", "-deps", "-json=ImportPath,Imports,Module", "./...")
	cmd.Dir = modDir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps in %s: %v", filepath.Clean(modDir), err)
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Module     *struct{ Path string }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Module == nil || p.Module.Path != modPath {
			continue
		}
		from := rel(modPath, p.ImportPath)
		graph[from] = nil
		for _, imp := range p.Imports {
			if to, ok := strings.CutPrefix(imp, modPath+"/"); ok {
				graph[from] = append(graph[from], to)
			}
		}
	}
	if len(graph) < 20 {
		t.Fatalf("go list found %d packages of %s: the test reads the wrong tree", len(graph), modPath)
	}
	for _, v := range Check(Rooms, graph) {
		t.Error(v)
	}
}

func rel(mod, pkg string) string {
	if pkg == mod {
		return "."
	}
	return strings.TrimPrefix(pkg, mod+"/")
}

// maxWiringLines bounds cmd/lab's non-test Go: the commands wire the rooms
// together and print; anything that decides or measures belongs in a room.
// The reference server (cmd/postgrest-mini) is a program of its own.
const maxWiringLines = 3500

func TestWiringStaysThin(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "cmd", "lab", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in cmd/lab (%v)", err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(b, []byte("\n"))
	}
	if lines > maxWiringLines {
		t.Errorf("cmd/lab holds %d lines of non-test Go, over %d: move what decides or measures into a room", lines, maxWiringLines)
	}
}
