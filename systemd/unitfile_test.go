package systemd

import (
	"strings"
	"testing"
	"time"
)

func TestRenderUnit(t *testing.T) {
	spec := UnitSpec{
		Name:         "lab-target.service",
		Description:  "PostgREST 100% target",
		ExecStart:    []string{"/usr/bin/postgrest", "/etc/lab/my conf.conf", `a"b\c`, "$HOME", ";", ""},
		User:         "postgres",
		WorkingDir:   "/var/lib/lab",
		Environment:  map[string]string{"PGRST_DB_URI": "postgres://x y", "B": "2"},
		LogFile:      "/var/log/lab/target.log",
		Restart:      "on-failure",
		KillSignal:   "int",
		ReloadSignal: "SIGUSR2",
		StopTimeout:  1500 * time.Millisecond,
		Extra:        map[string]string{"MemoryMax": "512M", "CPUAffinity": "0 1"},
	}
	got, err := RenderUnit(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := `# Written by pgrst-lab; changes are overwritten.
[Unit]
Description=PostgREST 100%% target
StartLimitIntervalSec=0

[Service]
Type=exec
ExecStart=/usr/bin/postgrest "/etc/lab/my conf.conf" "a\"b\\c" $$HOME ";" ""
ExecReload=/bin/kill -s SIGUSR2 $MAINPID
User=postgres
WorkingDirectory=/var/lib/lab
Environment="B=2"
Environment="PGRST_DB_URI=postgres://x y"
StandardOutput=append:/var/log/lab/target.log
StandardError=append:/var/log/lab/target.log
Restart=on-failure
RestartSec=100ms
KillSignal=SIGINT
TimeoutStopSec=1500ms
CPUAffinity=0 1
MemoryMax=512M
`
	if got != want {
		t.Fatalf("RenderUnit:\n%s\nwant:\n%s", got, want)
	}
}

func TestValidateErrors(t *testing.T) {
	ok := UnitSpec{Name: "a.service", ExecStart: []string{"/bin/true"}}
	cases := []struct {
		edit func(*UnitSpec)
		want string
	}{
		{func(s *UnitSpec) { s.Name = "a.socket" }, `unit name "a.socket": must end in .service`},
		{func(s *UnitSpec) { s.Name = "a/b.service" }, `character '/' not allowed`},
		{func(s *UnitSpec) { s.ExecStart = nil }, "ExecStart is empty"},
		{func(s *UnitSpec) { s.ExecStart = []string{"true"} }, `ExecStart[0] "true" is not an absolute path`},
		{func(s *UnitSpec) { s.ExecStart = []string{"/bin/echo", "a\nb"} }, "ExecStart[1] contains a newline"},
		{func(s *UnitSpec) { s.Restart = "sometimes" }, `Restart="sometimes": allowed: no, always`},
		{func(s *UnitSpec) { s.KillSignal = "SIGFOO" }, `KillSignal: unknown signal "SIGFOO"`},
		{func(s *UnitSpec) { s.Environment = map[string]string{"A B": "1"} }, `environment "A B=1" is not a NAME=VALUE assignment`},
		{func(s *UnitSpec) { s.Extra = map[string]string{"MemoryMax": "1\n[Unit]"} }, "Extra MemoryMax= contains a newline"},
		{func(s *UnitSpec) { s.LogFile = "rel.log" }, `LogFile "rel.log" is not an absolute path`},
	}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid spec: %v", err)
	}
	for _, c := range cases {
		s := ok
		c.edit(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want error containing %q, got %v", c.want, err)
		}
	}
}

func TestDropInFileName(t *testing.T) {
	for in, want := range map[string]string{
		"env": "50-lab-env.conf", "50-lab-env": "50-lab-env.conf", "50-lab-env.conf": "50-lab-env.conf", "cpu.conf": "50-lab-cpu.conf",
	} {
		if got, err := DropInFileName(in); err != nil || got != want {
			t.Errorf("DropInFileName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "../x", "a/b", ".."} {
		if _, err := DropInFileName(bad); err == nil {
			t.Errorf("DropInFileName(%q) accepted", bad)
		}
	}
}

// TestRenderEnvDropIn: one quoted Environment= line per assignment; what
// cannot be quoted for one line is refused.
func TestRenderEnvDropIn(t *testing.T) {
	got, err := RenderEnvDropIn("x.service", []string{`A=x' LD_PRELOAD=/e.so 'y`, `B=50% "q" \ $HOME`})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Written by pgrst-lab; removed when the experiment ends.\n[Service]\n" +
		`Environment="A=x' LD_PRELOAD=/e.so 'y"` + "\n" + `Environment="B=50%% \"q\" \\ $HOME"` + "\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{"A=1\nB=2", "A=\u2028", "A=\x00", "noassign", "1A=2", "A B=1"} {
		if _, err := RenderEnvDropIn("x.service", []string{bad}); err == nil {
			t.Errorf("RenderEnvDropIn(%q) accepted", bad)
		}
	}
}

func TestParseSignal(t *testing.T) {
	for in, want := range map[string]string{"SIGUSR2": "SIGUSR2", "usr2": "SIGUSR2", "INT": "SIGINT", "15": "SIGTERM"} {
		sig, err := ParseSignal(in)
		if err != nil || SignalName(sig) != want {
			t.Errorf("ParseSignal(%q) = %v, %v; want %s", in, sig, err, want)
		}
	}
	if _, err := ParseSignal("SIGNOPE"); err == nil {
		t.Error("ParseSignal(SIGNOPE) accepted")
	}
}

func TestLastLines(t *testing.T) {
	if got := lastLines("a\nb\nc\n", 2); got != "b\nc\n" {
		t.Errorf("got %q", got)
	}
	if got := lastLines("", 2); got != "" {
		t.Errorf("got %q", got)
	}
}
