package store_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/store"
)

func TestMain(m *testing.M) { labtest.Main(m) }

// testdata are the run records lab/record tests with: one with every field
// set, and a real efficiency run with two variants.
var testdata = []string{"golden/run.json", "run-efficiency-real.json"}

func readRun(t *testing.T, name string) *lab.Run {
	t.Helper()
	run, err := record.Read(filepath.Join("..", "lab", "record", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func open(t *testing.T, uri string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func count(t *testing.T, conn *pgx.Conn, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func TestSchemaVersion(t *testing.T) {
	if store.SchemaVersion() < 1 {
		t.Fatalf("SchemaVersion = %d: the embedded migrations are missing or misnumbered", store.SchemaVersion())
	}
}

func TestMigrateFromEmpty(t *testing.T) {
	db := labtest.NewDB(t)
	open(t, db.TCPURI("postgres"))
	conn := db.Conn(t)
	if n := count(t, conn, "SELECT count(*) FROM pgrst_lab.lab_schema_migrations"); n != store.SchemaVersion() {
		t.Errorf("%d migrations recorded, want %d", n, store.SchemaVersion())
	}
	for _, table := range []string{"runs", "variants", "trials", "trial_metrics", "summaries", "verdicts"} {
		if n := count(t, conn, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'pgrst_lab' AND table_name = $1", table); n != 1 {
			t.Errorf("table pgrst_lab.%s: not created", table)
		}
	}
	if n := count(t, conn, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"); n != 0 {
		t.Errorf("%d tables in schema public: the store's belong in pgrst_lab", n)
	}
}

func TestMigrateTwice(t *testing.T) {
	db := labtest.NewDB(t)
	conn := db.Conn(t)
	s := open(t, db.UnixURI("postgres"))
	var first string
	if err := conn.QueryRow(context.Background(), "SELECT string_agg(version || ' ' || applied_at, ',' ORDER BY version) FROM pgrst_lab.lab_schema_migrations").Scan(&first); err != nil {
		t.Fatal(err)
	}
	s.Close()
	open(t, db.UnixURI("postgres"))
	var second string
	if err := conn.QueryRow(context.Background(), "SELECT string_agg(version || ' ' || applied_at, ',' ORDER BY version) FROM pgrst_lab.lab_schema_migrations").Scan(&second); err != nil {
		t.Fatal(err)
	}
	if first != second {
		t.Errorf("second Open changed the migrations:\n%s\n%s", first, second)
	}
}

func TestConcurrentOpensMigrateOnce(t *testing.T) {
	db := labtest.NewDB(t)
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s, err := store.Open(context.Background(), db.TCPURI("postgres"))
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
		}
	}
	if got := count(t, db.Conn(t), "SELECT count(*) FROM pgrst_lab.lab_schema_migrations"); got != store.SchemaVersion() {
		t.Errorf("%d migrations recorded, want %d", got, store.SchemaVersion())
	}
}

func TestSchemaTooNew(t *testing.T) {
	db := labtest.NewDB(t)
	open(t, db.UnixURI("postgres")).Close()
	newer := store.SchemaVersion() + 1
	if _, err := db.Conn(t).Exec(context.Background(), "INSERT INTO pgrst_lab.lab_schema_migrations (version, name) VALUES ($1, 'future.sql')", newer); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(context.Background(), db.UnixURI("postgres"))
	if err == nil {
		s.Close()
		t.Fatal("a store of a newer schema was opened")
	}
	var tooNew *store.SchemaTooNewError
	if !errors.As(err, &tooNew) || tooNew.Store != newer || tooNew.Known != store.SchemaVersion() {
		t.Fatalf("err = %v, want a *SchemaTooNewError{%d, %d}", err, newer, store.SchemaVersion())
	}
	t.Log(err)
}

func TestPutAndRuns(t *testing.T) {
	db := labtest.NewDB(t)
	s := open(t, db.TCPURI("postgres"))
	conn := db.Conn(t)
	ctx := context.Background()
	ids := map[string]string{}
	for _, name := range testdata {
		run := readRun(t, name)
		id, inserted, err := s.Put(ctx, run, stats.Compare(run, 0), "results/"+name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !inserted || id != store.ID(run) {
			t.Errorf("%s: Put = %s, %v; want %s, true", name, id, inserted, store.ID(run))
		}
		ids[name] = id
		// The same run again, as another machine pushing the same
		// directory would: one run.
		again := readRun(t, name)
		id2, inserted, err := s.Put(ctx, again, stats.Compare(again, 0), "https://elsewhere/"+name)
		if err != nil || inserted || id2 != id {
			t.Errorf("%s: second Put = %s, %v, %v; want %s, false, nil", name, id2, inserted, err, id)
		}
		if n := count(t, conn, "SELECT count(*) FROM pgrst_lab.trials WHERE run_id = $1", id); n != len(run.Trials) {
			t.Errorf("%s: %d trial rows, want %d", name, n, len(run.Trials))
		}
		if n := count(t, conn, "SELECT count(*) FROM pgrst_lab.variants WHERE run_id = $1", id); n != len(run.Variants) {
			t.Errorf("%s: %d variant rows, want %d", name, n, len(run.Variants))
		}
	}
	if n := count(t, conn, "SELECT count(*) FROM pgrst_lab.runs"); n != len(testdata) {
		t.Errorf("%d runs stored, want %d", n, len(testdata))
	}

	all, err := s.Runs(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(testdata) {
		t.Fatalf("Runs = %d runs, want %d", len(all), len(testdata))
	}
	for i := 1; i < len(all); i++ {
		if all[i].Run.Started.Before(all[i-1].Run.Started) {
			t.Errorf("Runs not oldest first: %v after %v", all[i].Run.Started, all[i-1].Run.Started)
		}
	}
	for _, name := range testdata {
		want := readRun(t, name)
		got, err := s.Runs(ctx, store.Query{Experiment: want.Experiment.Name, HostID: want.Host.HostID})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("%s: Runs(%s, %s) = %d runs, want 1", name, want.Experiment.Name, want.Host.HostID, len(got))
		}
		if got[0].ID != ids[name] || got[0].Ref != "results/"+name {
			t.Errorf("%s: stored %s ref %q, want %s ref %q (the first Put's)", name, got[0].ID, got[0].Ref, ids[name], "results/"+name)
		}
		a, _ := record.Marshal(want)
		b, _ := record.Marshal(got[0].Run)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the stored run differs from the put one", name)
		}
	}
	// The identity columns: the experiment's hash and each variant's build
	// (the golden record sets every field, each to a different string).
	golden := readRun(t, "golden/run.json")
	var hash, version, commit, repo, ref string
	if err := conn.QueryRow(ctx, `SELECT r.experiment_hash, v.postgrest_version, v.commit, v.repo, v.ref
FROM pgrst_lab.runs r JOIN pgrst_lab.variants v ON v.run_id = r.id WHERE r.id = $1`, ids["golden/run.json"]).
		Scan(&hash, &version, &commit, &repo, &ref); err != nil {
		t.Fatal(err)
	}
	b := golden.Variants[0].Build
	if hash != golden.ExperimentHash || version != b.Version || commit != b.Commit || repo != b.Repo || ref != b.Ref {
		t.Errorf("identity: %q %q %q %q %q, want %q %+v", hash, version, commit, repo, ref, golden.ExperimentHash, b)
	}
	if hash == "" || b.Version == "" {
		t.Error("the golden record has no experiment hash or build: the check above checks nothing")
	}
	if got, err := s.Runs(ctx, store.Query{Experiment: "no-such-experiment"}); err != nil || len(got) != 0 {
		t.Errorf("Runs(no-such-experiment) = %d, %v", len(got), err)
	}
}

func TestID(t *testing.T) {
	run := readRun(t, "run-efficiency-real.json")
	id := store.ID(run)
	run.Interrupted = "different bytes, same run"
	if store.ID(run) != id {
		t.Error("the id depends on the record's contents beyond the run's identity")
	}
	other := readRun(t, "run-efficiency-real.json")
	other.Host.HostID = "another-machine"
	if store.ID(other) == id {
		t.Error("two hosts' runs share an id")
	}
	later := readRun(t, "run-efficiency-real.json")
	later.Started = later.Started.Add(1)
	if store.ID(later) == id {
		t.Error("runs a nanosecond apart share an id")
	}
}

// TestPutNeedsVerdicts: the verdicts are computed once, by whoever ran or
// read the run, and handed to Put; a caller that forgot them gets an error
// that says so, before anything is written (not a run without verdicts).
func TestPutNeedsVerdicts(t *testing.T) {
	run := readRun(t, "run-efficiency-real.json")
	_, inserted, err := new(store.Store).Put(context.Background(), run, nil, "")
	if err == nil || inserted || !strings.Contains(err.Error(), "no verdicts") {
		t.Fatalf("Put without verdicts: inserted %v, err %v", inserted, err)
	}
}

// TestSummariesAndVerdicts checks stored rows against stats, column by
// column on the real run, so that swapped columns fail.
func TestSummariesAndVerdicts(t *testing.T) {
	db := labtest.NewDB(t)
	s := open(t, db.TCPURI("postgres"))
	conn := db.Conn(t)
	ctx := context.Background()
	run := readRun(t, "run-efficiency-real.json")
	v := stats.Compare(run, 0)
	id, _, err := s.Put(ctx, run, v, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Rows) == 0 {
		t.Fatal("the real run has no verdicts")
	}
	if n := count(t, conn, "SELECT count(*) FROM pgrst_lab.verdicts WHERE run_id = $1", id); n != len(v.Rows) {
		t.Errorf("%d verdict rows, want %d", n, len(v.Rows))
	}
	checked := 0
	for _, r := range v.Rows {
		var change, lo, hi, mde *float64
		var p, pu, alpha, threshold float64
		var test, decision, baseline string
		var primary, significant bool
		var bn, vn int
		err := conn.QueryRow(ctx, `SELECT baseline, primary_metric, change_pct, ci_low_pct, ci_high_pct, p, p_unpaired, test, alpha, threshold,
    mde_pct, significant, decision, baseline_n, variant_n
FROM pgrst_lab.verdicts WHERE run_id = $1 AND variant = $2 AND scenario = $3 AND metric = $4`, id, r.VariantName, r.Scenario, r.Metric.Name).
			Scan(&baseline, &primary, &change, &lo, &hi, &p, &pu, &test, &alpha, &threshold, &mde, &significant, &decision, &bn, &vn)
		if err != nil {
			t.Fatalf("verdict %s %s %s: %v", r.VariantName, r.Scenario, r.Metric.Name, err)
		}
		where := r.VariantName + " " + r.Scenario + " " + r.Metric.Name
		same(t, where+" change_pct", change, r.DeltaPct)
		same(t, where+" mde_pct", mde, r.MDEPct)
		if l, h, ok := r.DiffCI(); ok {
			same(t, where+" ci_low_pct", lo, l)
			same(t, where+" ci_high_pct", hi, h)
		} else if lo != nil || hi != nil {
			t.Errorf("%s: an interval stored for an unbounded one", where)
		}
		if p != r.P || pu != r.PUnpaired || alpha != r.Alpha || threshold != r.Threshold {
			t.Errorf("%s: p %g, p_unpaired %g, alpha %g, threshold %g; want %g, %g, %g, %g", where, p, pu, alpha, threshold, r.P, r.PUnpaired, r.Alpha, r.Threshold)
		}
		if test != r.Test || decision != string(r.Outcome) || significant != r.Significant || baseline != r.BaselineName ||
			bn != r.Baseline.N || vn != r.Variant.N || primary != (r.Metric.Name == v.Primary.Name) {
			t.Errorf("%s: stored %q %q %v %q n=%d+%d primary=%v; want %q %q %v %q n=%d+%d", where, test, decision, significant, baseline, bn, vn, primary,
				r.Test, r.Outcome, r.Significant, r.BaselineName, r.Baseline.N, r.Variant.N)
		}
		// The summaries of both sides are the verdict's.
		for _, side := range []struct {
			name string
			sum  stats.Summary
		}{{r.BaselineName, r.Baseline}, {r.VariantName, r.Variant}} {
			if side.sum.N == 0 {
				continue
			}
			var n int
			var median float64
			var slo, shi *float64
			err := conn.QueryRow(ctx, `SELECT n, median, ci_low, ci_high FROM pgrst_lab.summaries
WHERE run_id = $1 AND variant = $2 AND scenario = $3 AND metric = $4`, id, side.name, r.Scenario, r.Metric.Name).Scan(&n, &median, &slo, &shi)
			if err != nil {
				t.Fatalf("summary %s %s %s: %v", side.name, r.Scenario, r.Metric.Name, err)
			}
			if n != side.sum.N || median != side.sum.Median {
				t.Errorf("summary %s %s: n=%d median %g, want n=%d median %g", side.name, r.Metric.Name, n, median, side.sum.N, side.sum.Median)
			}
			if side.sum.Bounded() {
				same(t, "summary "+side.name+" "+r.Metric.Name+" ci_low", slo, side.sum.Lo)
				same(t, "summary "+side.name+" "+r.Metric.Name+" ci_high", shi, side.sum.Hi)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no summary checked")
	}
	// Spot checks against the record itself: trial 1's throughput and
	// per-request CPU, in their columns and in trial_metrics.
	tr := run.Trials[0]
	var rate, p99, server, dbcpu, cpu float64
	if err := conn.QueryRow(ctx, `SELECT t.rate, t.p99_ms, t.server_cpu_us, t.db_cpu_us, m.value FROM pgrst_lab.trials t
JOIN pgrst_lab.trial_metrics m ON m.run_id = t.run_id AND m.seq = t.seq AND m.metric = 'cpu'
WHERE t.run_id = $1 AND t.seq = $2`, id, tr.Seq).Scan(&rate, &p99, &server, &dbcpu, &cpu); err != nil {
		t.Fatal(err)
	}
	if rate != tr.Load.Rate || p99 != tr.Load.LatencyMs.P99 || server != tr.Server.CPUPerRequestUs || dbcpu != tr.Database.CPUPerRequestUs ||
		cpu != tr.Server.CPUPerRequestUs+tr.Database.CPUPerRequestUs {
		t.Errorf("trial %d: rate %g p99 %g server %g db %g cpu %g; want %g %g %g %g", tr.Seq, rate, p99, server, dbcpu, cpu,
			tr.Load.Rate, tr.Load.LatencyMs.P99, tr.Server.CPUPerRequestUs, tr.Database.CPUPerRequestUs)
	}
	if server == dbcpu {
		t.Error("the test cannot tell server from database CPU: pick another trial")
	}
}

// same checks a nullable column against a float that may be NaN or
// infinite (stored as NULL).
func same(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	switch {
	case math.IsNaN(want) || math.IsInf(want, 0):
		if got != nil {
			t.Errorf("%s = %g, want NULL (for %g)", what, *got, want)
		}
	case got == nil:
		t.Errorf("%s = NULL, want %g", what, want)
	case *got != want:
		t.Errorf("%s = %g, want %g", what, *got, want)
	}
}

func TestRefuseMeasured(t *testing.T) {
	ctx := context.Background()
	measured := labtest.NewDB(t)
	other := labtest.NewDB(t) // another database in the same cluster
	// A store role with no privileges beyond its database: pg_control_system()
	// must still answer.
	if err := measured.Psql("postgres", "DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lab_store') THEN CREATE ROLE lab_store LOGIN; END IF; END$$"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, store string
		admins      []string
	}{
		{"same database, same URI", measured.UnixURI("postgres"), []string{measured.UnixURI("postgres")}},
		{"same database, TCP vs socket", measured.TCPURI("postgres"), []string{measured.UnixURI("postgres")}},
		{"another database of the cluster, another role", other.TCPURI("lab_store"), []string{measured.UnixURI("postgres")}},
		{"among several", other.TCPURI("postgres"), []string{"", labtest.NewDB(t).UnixURI("postgres")}},
	} {
		err := store.RefuseMeasured(ctx, c.store, c.admins...)
		if !errors.Is(err, store.ErrMeasuredStore) {
			t.Errorf("%s: err = %v, want ErrMeasuredStore", c.name, err)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	if err := store.RefuseMeasured(ctx, other.TCPURI("postgres")); err != nil {
		t.Errorf("nothing measured: %v", err)
	}
	// Another server is accepted.
	second := labtest.NewCluster(t)
	elsewhere := labtest.DB{Cluster: second, Name: "postgres"}
	if err := store.RefuseMeasured(ctx, elsewhere.TCPURI("postgres"), measured.UnixURI("postgres")); err != nil {
		t.Errorf("a store on another cluster: %v", err)
	}
	// A store that does not answer is an error, not an acceptance.
	bad := labtest.DB{Cluster: &labtest.Cluster{Port: 1, SocketDir: t.TempDir()}, Name: "x"}
	if err := store.RefuseMeasured(ctx, bad.TCPURI("postgres"), measured.UnixURI("postgres")); err == nil || errors.Is(err, store.ErrMeasuredStore) {
		t.Errorf("an unreachable store: err = %v", err)
	}
}
