package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/store"
)

// storeDB is a store database on a cluster of the test's own (cmd/lab's
// tests start no shared one), with a connection to count its rows.
func storeDB(t *testing.T) (string, *pgx.Conn) {
	t.Helper()
	db := labtest.DB{Cluster: labtest.NewCluster(t), Name: "postgres"}
	return db.TCPURI("postgres"), db.Conn(t)
}

func copyRun(t *testing.T, from, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "lab", "record", "testdata", from))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, record.File), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPushIsIdempotent(t *testing.T) {
	uri, conn := storeDB(t)
	ctx := context.Background()
	tree := t.TempDir()
	real := filepath.Join(tree, "efficiency-tiny", "20261201-205418")
	golden := filepath.Join(tree, "host-b", "string-e", "20261130-120214")
	copyRun(t, "run-efficiency-real.json", real)
	copyRun(t, "golden/run.json", golden)
	copyRun(t, "golden/run.json", filepath.Join(tree, "string-e", ".20261130.tmp-123")) // being written: skipped

	push := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(ctx, append([]string{"push"}, args...), &out, &errb); err != nil {
			t.Fatalf("lab push %v: %v\n%s%s", args, err, out.String(), errb.String())
		}
		return out.String()
	}
	line := regexp.MustCompile(`(?m)^(inserted|already stored) +([0-9a-f]{12})  (.+)$`)
	check := func(out, want string) {
		t.Helper()
		ms := line.FindAllStringSubmatch(out, -1)
		if len(ms) != 2 {
			t.Fatalf("want 2 run lines, got:\n%s", out)
		}
		dirs := map[string]bool{}
		for _, m := range ms {
			if m[1] != want {
				t.Errorf("%s: %s, want %s", m[3], m[1], want)
			}
			dirs[m[3]] = true
		}
		if !dirs[real] || !dirs[golden] {
			t.Errorf("run lines name %v, want %s and %s", dirs, real, golden)
		}
	}
	check(push("--store", uri, "--ref", "https://ci.example/artifacts/7/", tree), "inserted")
	// Again, through $LAB_STORE and one run given as its own directory:
	// nothing new.
	t.Setenv("LAB_STORE", uri)
	out := push(tree)
	check(out, "already stored")
	if !strings.Contains(out, "0 runs inserted, 2 already stored") {
		t.Errorf("no totals line:\n%s", out)
	}
	if out := push(real); !strings.Contains(out, "already stored") {
		t.Errorf("pushing one result directory:\n%s", out)
	}

	for table, want := range map[string]int{"runs": 2, "variants": 3, "trials": 11} {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pgrst_lab."+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%d rows in %s, want %d", n, table, want)
		}
	}
	var ref string
	if err := conn.QueryRow(ctx, "SELECT ref FROM pgrst_lab.runs WHERE experiment = 'efficiency-tiny'").Scan(&ref); err != nil {
		t.Fatal(err)
	}
	if want := "https://ci.example/artifacts/7/efficiency-tiny/20261201-205418"; ref != want {
		t.Errorf("ref = %q, want %q (the first push's)", ref, want)
	}
}

func TestPushNeedsAStoreAndRuns(t *testing.T) {
	t.Setenv("LAB_STORE", "")
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"push", t.TempDir()}, &out, &errb)
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "LAB_STORE") {
		t.Errorf("no store: err = %v (exit %d)", err, exitCode(err))
	}
	err = run(context.Background(), []string{"push", "--store", "postgres://nobody@127.0.0.1:1/x", t.TempDir()}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "no run.json") {
		t.Errorf("an empty tree: err = %v", err)
	}
}

func TestStoreFlagsInHelp(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"help", "run"}, []string{"-store", "LAB_STORE"}},
		{[]string{"push", "--help"}, []string{"-store", "-ref", "LAB_STORE"}},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), c.args, &out, &errb); err != nil {
			t.Fatalf("lab %v: %v", c.args, err)
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("lab %v does not mention %s:\n%s", c.args, w, out.String())
			}
		}
	}
}

// TestRunChecksTheStoreFirst: a store that does not answer fails `lab run`
// before any stack is brought up or trial run.
func TestRunChecksTheStoreFirst(t *testing.T) {
	var out, errb bytes.Buffer
	dir := filepath.Join(t.TempDir(), "stack")
	err := run(context.Background(), []string{"run", "aa", "--dir", dir, "--results", t.TempDir(),
		"--store", "postgres://nobody:secret@127.0.0.1:1/x?connect_timeout=5"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "store") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("the store's password is shown: %v", err)
	}
	if strings.Contains(out.String(), "bringing up") {
		t.Errorf("the stack was brought up before the store was checked:\n%s", out.String())
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the stack's state dir was made before the store was checked")
	}
	t.Log(err)
	// With --agent, --store is refused (push the hosts' results instead).
	err = run(context.Background(), []string{"run", "aa", "--agent", "https://127.0.0.1:1", "--store", "postgres://x@127.0.0.1:1/x"}, &out, &errb)
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "lab push") {
		t.Errorf("--agent with --store: err = %v (exit %d)", err, exitCode(err))
	}
}

// TestPutResult: `lab run --store` stores the result once it is written,
// and a store that fails then says how to import the directory later.
func TestPutResult(t *testing.T) {
	uri, conn := storeDB(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "efficiency-tiny", "20261201-205418")
	copyRun(t, "run-efficiency-real.json", dir)
	r, err := record.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := &session.Result{Run: r, Verdicts: stats.Compare(r, 0), Dir: dir}
	st, err := store.Open(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := putResult(ctx, st, res, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "store: stored as "+store.ID(r)[:12]) {
		t.Errorf("output: %q", out.String())
	}
	var ref string
	if err := conn.QueryRow(ctx, "SELECT ref FROM pgrst_lab.runs").Scan(&ref); err != nil || ref != dir {
		t.Errorf("ref = %q, %v; want %s", ref, err, dir)
	}
	st.Close()
	err = putResult(ctx, st, res, &out) // the store has gone away
	if err == nil || !strings.Contains(err.Error(), "lab push "+dir) {
		t.Errorf("a failed store: err = %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, record.File)); serr != nil {
		t.Errorf("the result directory: %v", serr)
	}
}
