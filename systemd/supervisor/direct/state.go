package direct

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// directState is what the direct supervisor persists per unit, as JSON in
// its state dir, so that a later lab process can inspect, stop or restart
// a service an earlier one started.
type directState struct {
	Spec    systemd.UnitSpec             `json:"spec"`
	DropIns map[string]map[string]string `json:"drop_ins,omitempty"` // file name -> settings
	Env     map[string][]string          `json:"env,omitempty"`      // drop-in file name -> KEY=VALUE list (SetEnvironment)

	PID            int    `json:"pid,omitempty"`
	StartTime      uint64 `json:"start_time,omitempty"` // /proc/PID/stat starttime, to detect PID reuse
	ActiveState    string `json:"active_state"`
	SubState       string `json:"sub_state"`
	Result         string `json:"result"`
	ExecMainCode   int    `json:"exec_main_code,omitempty"`
	ExecMainStatus int    `json:"exec_main_status,omitempty"`
	NRestarts      int    `json:"n_restarts,omitempty"`
	// Cgroup is the cgroup the running process was started in (nil
	// without cgroup settings); removed when the process is gone.
	Cgroup *unitCgroup `json:"cgroup,omitempty"`
}

// procStat is what the supervisor needs to know about a process.
type procStat struct {
	State     byte   // R, S, D, Z, ...
	StartTime uint64 // when it started (Linux: clock ticks after boot); tells a PID's reuse apart
}

var errNotInstalled = errors.New("unit not installed")

func (d *Supervisor) statePath(name string) string { return filepath.Join(d.dir, name+".json") }

// defaultLog is where output goes when the spec has no LogFile.
func (d *Supervisor) defaultLog(name string) string { return filepath.Join(d.dir, name+".log") }

func (d *Supervisor) load(name string) (*directState, error) {
	if err := systemd.ValidateUnitName(name); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(d.statePath(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w (no %s)", name, errNotInstalled, d.statePath(name))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: read state: %w", name, err)
	}
	var st directState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s: state file %s: %w", name, d.statePath(name), err)
	}
	return &st, nil
}

func (d *Supervisor) save(st *directState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(d.statePath(st.Spec.Name), append(b, '\n'), atomicfile.Options{Mode: 0o644}); err != nil {
		return fmt.Errorf("%s: save state: %w", st.Spec.Name, err)
	}
	return nil
}

// logFile is the spec's LogFile or the default one in the state dir.
func (st *directState) logFile(d *Supervisor) string {
	if st.Spec.LogFile != "" {
		return st.Spec.LogFile
	}
	return d.defaultLog(st.Spec.Name)
}

// settings merges Extra and the drop-ins (in file-name order, later
// wins) and lists the environment SetEnvironment gave (in file-name order,
// later wins), as KEY=VALUE assignments that are never parsed again.
func (st *directState) settings() (map[string]string, []string) {
	out := map[string]string{}
	for k, v := range st.Spec.Extra {
		out[k] = v
	}
	for _, f := range slices.Sorted(maps.Keys(st.DropIns)) {
		for k, v := range st.DropIns[f] {
			out[k] = v
		}
	}
	var env []string
	for _, f := range slices.Sorted(maps.Keys(st.Env)) {
		env = append(env, st.Env[f]...)
	}
	return out, env
}
