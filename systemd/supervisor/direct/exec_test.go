package direct

import (
	"os/exec"
	"slices"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// CPUAffinity= reaches taskset(1) as the lab's CPU list (internal/cpulist)
// writes it, whichever of systemd's separators the drop-in used.
func TestCommandPinsThroughTaskset(t *testing.T) {
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Skipf("taskset: %v", err)
	}
	d := &Supervisor{}
	st := &directState{Spec: systemd.UnitSpec{Name: "x.service", ExecStart: []string{"/bin/true", "-a"}},
		DropIns: map[string]map[string]string{"50-lab-cpu.conf": {"CPUAffinity": "2-3 0,3"}}}
	cmd, err := d.command(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{taskset, "-c", "2,3,0", "/bin/true", "-a"}; !slices.Equal(cmd.Args, want) {
		t.Errorf("argv %q, want %q", cmd.Args, want)
	}
	st.DropIns["50-lab-cpu.conf"]["CPUAffinity"] = "3-1"
	if _, err := d.command(st, nil); err == nil {
		t.Error("CPUAffinity=3-1 made a command")
	}
}
