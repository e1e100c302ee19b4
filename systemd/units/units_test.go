package units

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// systemd-analyze verifies the units: their syntax, every directive
// known, the timer's service there. The lab executable they start is not
// installed here: /bin/true stands in for it, in copies.
func TestUnitsVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		labtest.Need(t, "systemd-analyze: %v", err)
		return
	}
	for _, tc := range []struct {
		user  bool
		units []string
		lab   string
	}{
		{false, []string{"lab-agent.service"}, "/usr/local/bin/lab"},
		{true, []string{"lab-track.timer", "lab-track.service"}, "%h/.local/bin/lab"},
	} {
		dir := t.TempDir()
		args := []string{"verify"}
		if tc.user {
			args = []string{"--user", "verify"}
		}
		for _, u := range tc.units {
			b, err := os.ReadFile(u)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "ExecStart="+tc.lab+" ") && strings.HasSuffix(u, ".service") {
				t.Errorf("%s: ExecStart does not start %s", u, tc.lab)
			}
			body := strings.ReplaceAll(string(b), "ExecStart="+tc.lab+" ", "ExecStart=/bin/true ")
			if err := os.WriteFile(filepath.Join(dir, u), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, filepath.Join(dir, u))
		}
		out, err := exec.Command(analyze, args...).CombinedOutput()
		if err != nil || len(strings.TrimSpace(string(out))) > 0 {
			t.Errorf("systemd-analyze %v: %v\n%s", args, err, out)
		}
	}
	b, _ := os.ReadFile("lab-track.timer")
	for _, want := range []string{"Persistent=true", "RandomizedDelaySec=", "OnCalendar="} {
		if !strings.Contains(string(b), want) {
			t.Errorf("lab-track.timer lacks %s", want)
		}
	}
}
