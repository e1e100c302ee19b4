package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// secretPlant starts every secret TestRunHidesPlantedSecrets plants: no
// output of the run may hold it.
const secretPlant = "TOPSECRET"

// secretsExperiment sets a secret in every value a local run's variant
// can: app.settings.x and jwt-secret, app.settings.x as a PGRST_*
// variable, a key the lab's table lacks, and (%q: the URI) a db-uri's
// password.
const secretsExperiment = `name = "secrets"
scenarios = ["GETSingle"]
allow_unknown_keys = true
[load]
model = "closed"
connections = 2
duration = "1s"
warmup = "0s"
[trials]
min = 2
max = 2
[[variant]]
name = "plain"
baseline = true
[[variant]]
name = "secrets"
[variant.postgrest]
"app.settings.jwt_secret" = "TOPSECRET-variant-app-settings"
jwt-secret = "TOPSECRET-variant-jwt-secret-0123456789abcdef"
lab-future-secret = "TOPSECRET-variant-unknown-key"
[variant.env]
PGRST_APP_SETTINGS_token = "TOPSECRET-variant-env-app-settings"
[[variant]]
name = "password"
[variant.postgrest]
db-uri = %q
`

// TestRunHidesPlantedSecrets (issue 41, item 2: secrets hidden by default):
// a real local run on postgrest-mini whose target's config holds secrets
// (app.settings.jwt_secret, jwt-secret, a key the lab's table lacks, the
// db-uri's password), with variants that set new ones. Neither the
// originals (which the variants' changes show as from) nor the new ones
// may appear in what the run writes: its output, run.json, report.md,
// report.html, verdicts.json and every other file of the result
// directory, the --markdown summary, and every row of the store.
func TestRunHidesPlantedSecrets(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	dir := directStack(t)
	storeURI := labtest.NewDB(t).UnixURI("postgres")
	st := stackStatus(t, dir)
	setStackConfig(t, dir, func(f *configs.File) error {
		for k, v := range map[string]string{"app.settings.jwt_secret": secretPlant + "-original-app-settings",
			"jwt-secret": secretPlant + "-original-jwt-secret-0123456789abcdef", "lab-future-secret": secretPlant + "-original-unknown-key"} {
			if err := f.Set(k, configs.String(v)); err != nil {
				return err
			}
		}
		uri, _ := f.Get("db-uri")
		withPW := strings.Replace(uri.String(), "://authenticator@", "://authenticator:"+secretPlant+"-original-password@", 1)
		if withPW == uri.String() {
			t.Fatalf("the stack's db-uri %q has no authenticator@ to add a password to", uri.String())
		}
		return f.Set("db-uri", configs.String(withPW))
	})
	uri := strings.Replace(st.TCPURI, "://authenticator@", "://authenticator:"+secretPlant+"-variant-password@", 1)
	if uri == st.TCPURI {
		t.Fatalf("the stack's TCP URI %q has no authenticator@ to add a password to", st.TCPURI)
	}
	exp := filepath.Join(t.TempDir(), "secrets.toml")
	if err := os.WriteFile(exp, []byte(fmt.Sprintf(secretsExperiment, uri)), 0o644); err != nil {
		t.Fatal(err)
	}
	// app.settings.x is privileged for an agent, not for a local run: the
	// user's own machine.
	vout, err := runLab(t, "validate", exp)
	if err != nil {
		t.Fatalf("lab validate: %v\n%s", err, vout)
	}
	results, md := t.TempDir(), filepath.Join(t.TempDir(), "summary.md")
	out, err := runLab(t, "run", exp, "--dir", dir, "--results", results, "--store", storeURI, "--markdown", md)
	if err != nil {
		t.Fatalf("lab run: %v\n%s", err, out)
	}
	outputs := map[string]string{"lab validate's output": vout, "lab run's output": out}
	var files []string
	if err := filepath.WalkDir(results, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(files, md) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		outputs[p] = string(b)
	}
	for _, name := range []string{"run.json", "report.md", "report.html"} {
		if !slices.ContainsFunc(files, func(p string) bool { return filepath.Base(p) == name }) {
			t.Errorf("the result directory lacks %s: %v", name, files)
		}
	}
	// The run shows the changes, hidden: the variant's app.settings key
	// is listed in run.json.
	if run := joinSuffix(outputs, "run.json"); !strings.Contains(run, `"app.settings.jwt_secret"`) || !strings.Contains(run, `\u003credacted\u003e`) {
		t.Errorf("run.json does not list app.settings.jwt_secret as <redacted>:\n%s", run)
	}
	outputs["the store"] = storeRows(t, storeURI)
	for where, text := range outputs {
		if i := strings.Index(text, secretPlant); i >= 0 {
			t.Errorf("%s shows a planted secret: …%s…", where, text[max(0, i-200):min(len(text), i+200)])
		}
	}
}

// joinSuffix is the content of the outputs whose names end in suffix.
func joinSuffix(outputs map[string]string, suffix string) string {
	var b strings.Builder
	for name, text := range outputs {
		if strings.HasSuffix(name, suffix) {
			b.WriteString(text)
		}
	}
	return b.String()
}

// storeRows is every row of every table of the store, as text.
func storeRows(t *testing.T, uri string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables
		WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(tables) == 0 {
		t.Fatalf("the store's tables: %v %v", tables, err)
	}
	var b strings.Builder
	for _, tbl := range tables {
		var text string
		if err := conn.QueryRow(ctx, "SELECT coalesce(string_agg(t::text, E'\\n'), '') FROM "+tbl+" t").Scan(&text); err != nil {
			t.Fatalf("%s: %v", tbl, err)
		}
		b.WriteString(text)
	}
	if !strings.Contains(b.String(), "secrets") {
		t.Fatalf("the store holds no run of the experiment secrets")
	}
	return b.String()
}

// setStackConfig changes the stack's own config (what the lab restores
// to) with edit and restarts the target on it.
func setStackConfig(t *testing.T, dir string, edit func(f *configs.File) error) {
	t.Helper()
	st := stackStatus(t, dir)
	src, err := os.ReadFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	f, err := configs.Parse(st.Config, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := edit(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(st.Config, f.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := stack.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctrl, err := s.Controller(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := ctrl.Restart(context.Background(), st.Target.Name); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "the target ready after the restart", func() bool {
		resp, err := http.Get(st.AdminURL + "/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}
