package stack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// FactsFile is the name of the file in the state directory that records the stack.
const FactsFile = "stack.json"

// Facts is what stack.json records: enough to find, inspect and stop the
// stack from another process.
type Facts struct {
	Dir        string       `json:"dir"`
	Supervisor systemd.Kind `json:"supervisor"` // Controller.Kind() the units run under
	PGBinDir   string       `json:"pg_bin_dir"`
	PGPort     int          `json:"pg_port"`
	PGUnit     string       `json:"pg_unit,omitempty"`
	// Target fields are empty when no target runs.
	TargetUnit string `json:"target_unit,omitempty"`
	// Installed lists the units this stack installed and has not removed;
	// Down removes exactly these.
	Installed []string `json:"installed"`
	Binary    string   `json:"binary,omitempty"`
	// Staged is what the target runs in Binary's place ("" = Binary): the
	// file Binary named when it was checked, or, when the lab is root, its
	// copy in the lab's store (runas.Account.Pin).
	Staged string `json:"staged,omitempty"`
	// TargetUser runs the target and its twin: never root (runas.Target).
	TargetUser string `json:"target_user,omitempty"`
	Reference  bool   `json:"reference,omitempty"`
	Port       int    `json:"port,omitempty"`
	AdminPort  int    `json:"admin_port,omitempty"`
	NoTarget   string `json:"no_target,omitempty"` // why no target runs
	// Twin fields: the second target of duet runs (see Stack.Twin), once
	// started.
	TwinUnit      string `json:"twin_unit,omitempty"`
	TwinPort      int    `json:"twin_port,omitempty"`
	TwinAdminPort int    `json:"twin_admin_port,omitempty"`
}

func (f Facts) clone() Facts {
	f.Installed = slices.Clone(f.Installed)
	return f
}

func (f Facts) installed(unit string) bool {
	return unit != "" && slices.Contains(f.Installed, unit)
}

func (f *Facts) setInstalled(unit string, on bool) {
	f.Installed = slices.DeleteFunc(f.Installed, func(u string) bool { return u == unit })
	if on {
		f.Installed = append(f.Installed, unit)
	}
}

func (f Facts) dataDir() string    { return filepath.Join(f.Dir, "pg-data") }
func (f Facts) socketDir() string  { return filepath.Join(f.Dir, "pg-socket") }
func (f Facts) logDir() string     { return filepath.Join(f.Dir, "logs") }
func (f Facts) configPath() string { return filepath.Join(f.Dir, "postgrest.conf") }

// execPath is the binary the target's unit runs: the staged copy, if any.
func (f Facts) execPath() string {
	if f.Staged != "" {
		return f.Staged
	}
	return f.Binary
}

// unitPrefix is "lab-<8 hex of sha256(abs dir)>", so stacks in different
// directories never share unit names.
func unitPrefix(absDir string) string {
	h := sha256.Sum256([]byte(absDir))
	return "lab-" + hex.EncodeToString(h[:4])
}

func pgUnitName(absDir string) string     { return unitPrefix(absDir) + "-postgres.service" }
func targetUnitName(absDir string) string { return unitPrefix(absDir) + "-target.service" }
func twinUnitName(absDir string) string   { return unitPrefix(absDir) + "-twin.service" }

// readFacts reads stack.json; ok is false when there is none.
func readFacts(dir string) (f Facts, ok bool, err error) {
	path := filepath.Join(dir, FactsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Facts{}, false, nil
	}
	if err != nil {
		return Facts{}, false, fmt.Errorf("read %s: %w (fix its permissions or choose another --dir)", path, err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return Facts{}, false, fmt.Errorf("%s is not valid stack facts: %v (remove it if no stack runs there, or choose another --dir)", path, err)
	}
	if f.Dir != dir {
		return Facts{}, false, fmt.Errorf("%s belongs to a stack in %s, not %s (the directory was moved: run `lab stack down --dir %s` from the old place, or remove the file)", path, f.Dir, dir, f.Dir)
	}
	return f, true, nil
}

// writeFacts writes stack.json atomically.
func writeFacts(f Facts) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(f.Dir, FactsFile), append(b, '\n'), atomicfile.Options{Mode: 0o644})
}
