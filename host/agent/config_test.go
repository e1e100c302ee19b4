package agent

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func writeConfig(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "agent.toml")
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadConfig(t *testing.T) {
	p := writeConfig(t, `
listen = "10.0.0.5:7171"
advertise_host = "10.0.0.5"
lease = "4s"
[stack]
dir = "stack"
[tls]
cert = "agent.pem"
key = "agent-key.pem"
[allow]
postgresql_settings = ["synchronous_commit"]
postgrest_keys = ["db-pool", "app.settings.*"]
`)
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Lease != 4*time.Second || c.Stack.Dir != filepath.Join(filepath.Dir(p), "stack") || c.TLS.Cert != filepath.Join(filepath.Dir(p), "agent.pem") {
		t.Fatalf("config: %+v", c)
	}
	if !slices.Equal(c.Allow.PostgreSQL, []string{"synchronous_commit"}) || !slices.Contains(c.Allow.Env, "PGRST_DB_POOL") {
		t.Fatalf("allow: %+v (lists given replace the default, others keep it)", c.Allow)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"listen = \"127.0.0.1:1\"\n[stack]\ndir = \"x\"\nunits = [\"ssh.service\"]\n", `:4: unknown key "stack.units" (allowed: dir)`},
		{"lisen = \"127.0.0.1:1\"\n[stack]\ndir = \"x\"\n", `:1: unknown key "lisen"`},
		{"[target]\nunit = \"postgrest.service\"\n", `[target] needs unit, config and url`},
		{"listen = \n", `:1:`},
		{"", `say what the agent may touch`},
		{"[stack]\ndir = \"x\"\n[target]\nunit = \"u\"\nconfig = \"c\"\nurl = \"http://x\"\n", `not both`},
		{"lease = \"100ms\"\n[stack]\ndir = \"x\"\n", `:1: lease 100ms`},
		{"host_id = \"a\\u001b[2Jb\"\n[stack]\ndir = \"x\"\n", `:1: host_id`},
		{"[stack]\ndir = \"x\"\n[allow]\nbinaries = [\"postgrest\"]\n", `:4: binary "postgrest": give an absolute path`},
		{"[stack]\ndir = \"x\"\n[allow]\nenv = [\"PGRST_*\"]\n", `:4: env "PGRST_*": variables are allowed by exact name`},
		{"[stack]\ndir = \"x\"\n[allow]\nenv = [\"LD_PRELOAD\"]\n", `:4: env.LD_PRELOAD: the lab sets only`},
		{"[stack]\ndir = \"x\"\n[allow]\nenv = [\"PGRST_SERVER_HOST\"]\n", `names the address`},
		{"[stack]\ndir = \"x\"\n[allow]\npostgrest_keys = [\"server-unix-socket\"]\n", `:4: postgrest.server-unix-socket`},
		{"[stack]\ndir = \"x\"\n[allow]\npostgrest_keys = [\"db-*\"]\n", `:4: postgrest key "db-*": keys are listed by name; the one pattern is "app.settings.*"`},
		{"[stack]\ndir = \"x\"\n[allow]\ndropin = [\"ExecStart\"]\n", `:4: dropin "ExecStart"`},
		{"[stack]\ndir = \"x\"\n[allow]\npostgresql_settings = [\"work_mem\", \"archive_command\"]\n", `:4: postgresql.archive_command: runs a shell command`},
		{"[stack]\ndir = \"x\"\n[allow]\npostgresql_settings = [\"shared_preload_libraries\"]\n", `:4: postgresql.shared_preload_libraries: loads shared libraries`},
		// Issue 52, item 8: settings that can corrupt a cluster on a crash, never for an operator's database.
		{"[target]\nunit = \"u\"\nconfig = \"c\"\nurl = \"http://x\"\n[allow]\npostgresql_settings = [\"work_mem\", \"fsync\"]\n", `:6: postgresql setting fsync: = off lets a crash of the host corrupt`},
		{"[target]\nunit = \"u\"\nconfig = \"c\"\nurl = \"http://x\"\n[allow]\npostgresql_settings = [\"Full_Page_Writes\"]\n", `only for the lab's own stack`},
	} {
		p := writeConfig(t, tc.src)
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: %v, want an error with the file and %q", tc.src, err, tc.want)
		}
	}
}

// fsync and full_page_writes may be allowed for the lab's own stack, a
// cluster the lab made and can make again.
func TestThrowawaySettingsOnTheLabsStack(t *testing.T) {
	p := writeConfig(t, "[stack]\ndir = \"x\"\n[allow]\npostgresql_settings = [\"fsync\", \"full_page_writes\", \"log_statement\"]\n")
	if _, err := LoadConfig(p); err != nil {
		t.Errorf("[stack] with fsync and full_page_writes allowed: %v", err)
	}
}

// [target] reads every key it names into the lab's model, and the list
// of allowed keys an unknown one is told about is exactly its TOML keys.
func TestTargetConfigKeys(t *testing.T) {
	p := writeConfig(t, `
state_dir = "/var/lib/x"
[target]
unit = "postgrest.service"
config = "/etc/postgrest.conf"
url = "http://127.0.0.1:3000"
admin_url = "http://127.0.0.1:3001"
pg_unit = "postgresql.service"
pg_uri = "postgres:///postgres"
`)
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	want := lab.Target{Unit: "postgrest.service", Config: "/etc/postgrest.conf", URL: "http://127.0.0.1:3000", AdminURL: "http://127.0.0.1:3001", PGUnit: "postgresql.service", PGURI: "postgres:///postgres"}
	if got := c.Target.Target(); got != want {
		t.Errorf("target %+v, want %+v", got, want)
	}
	var tags []string
	rt := reflect.TypeFor[TargetConfig]()
	for i := range rt.NumField() {
		tags = append(tags, rt.Field(i).Tag.Get("toml"))
	}
	if got, want := allowedKeys(toml.Key{"target", "x"}), strings.Join(tags, ", "); got != want {
		t.Errorf("allowed [target] keys %q, want %q", got, want)
	}
}
