package reconcile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// The server side records the data set of its database (real PostgreSQL):
// the generated set (labtest.Chinook: `lab fixture chinook`'s) as
// generated, seed 1; the real Chinook loaded from $LAB_CHINOOK_DIR's files
// (`lab fixture load`'s) as those files; with the Chinook rows and two
// different checksums. The fixture's kinds are the lab's.
func TestDescribeDatasetGeneratedAndReal(t *testing.T) {
	if fixture.KindGenerated != lab.DatasetGenerated || fixture.KindFiles != lab.DatasetFiles || fixture.KindUnknown != lab.DatasetUnknown {
		t.Fatal("internal/fixture's kinds are not lab's")
	}
	ctx := context.Background()
	files := []string{filepath.Join(labtest.ChinookDir(), "chinook.sql"), filepath.Join(labtest.ChinookDir(), "bench.sql")}
	if _, err := os.Stat(files[0]); err != nil {
		labtest.Need(t, "the real Chinook (LAB_CHINOOK_DIR): %v", err)
	}
	gen, real := labtest.Chinook(t), labtest.NewDB(t)
	admin := fmt.Sprintf("postgres://postgres@/postgres?host=%s&port=%d", real.SocketDir, real.Port)
	if _, err := fixture.LoadFiles(ctx, admin, real.Name, files...); err != nil {
		t.Fatal(err)
	}
	describe := func(db labtest.DB) lab.Dataset {
		d, err := (&Server{cfg: Config{AdminURI: db.UnixURI("postgres")}}).DescribeDataset(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	g, r := describe(gen), describe(real)
	if g.Kind != lab.DatasetGenerated || g.Seed != fixture.DefaultSeed || g.Rows["track"] != 3503 || g.Rows["artist"] != 275 {
		t.Errorf("generated: %+v", g)
	}
	if r.Kind != lab.DatasetFiles || len(r.Files) != 2 || r.Files[0] != "chinook.sql" || r.Rows["track"] != 3503 || r.Rows["album"] != 347 {
		t.Errorf("real: %+v", r)
	}
	if g.Checksum == r.Checksum || len(g.Checksum) != 32 {
		t.Errorf("checksums %q and %q: want two different md5s", g.Checksum, r.Checksum)
	}
	if _, err := (&Server{}).DescribeDataset(ctx); err == nil {
		t.Error("no database, yet a data set")
	}
}

// On a real database: the generated Chinook alone lacks the gen<N> schemas
// an experiment's variants expose, and the refusal names the stack's
// fixture command; once generated, they are there. The lab's names for the
// extra data are internal/fixture's.
func TestDataNeedsOnARealDatabase(t *testing.T) {
	if lab.FixtureFlags(lab.DataNeeds{Loadtest: true}, lab.Dataset{}) != "--postgrest-loadtest" ||
		fixture.LoadtestSchema != "test" || fixture.RowsTable != "big_rows" || fixture.TablesSchema(3) != "gen3" {
		t.Fatal("the lab's names of the extra data are not internal/fixture's")
	}
	ctx := context.Background()
	e := &lab.Experiment{Name: "reload", Variants: []lab.Variant{{Name: "a", PostgREST: map[string]string{"db-schemas": "public, gen3"}}},
		Custom: []lab.Scenario{{Name: "rows", Path: "/big_rows?limit=20"}}}
	plain, extra := labtest.Chinook(t), labtest.NewDB(t)
	admin := fmt.Sprintf("postgres://postgres@/postgres?host=%s&port=%d", extra.SocketDir, extra.Port)
	if _, err := fixture.ChinookWith(ctx, admin, extra.Name, 1, fixture.Extra{Tables: fixture.TableCounts{3}, Rows: 20}); err != nil {
		t.Fatal(err)
	}
	srv := &Server{cfg: Config{AdminURI: plain.UnixURI("postgres"), StateDir: "/var/lab", TargetSpec: &systemd.UnitSpec{}}}
	d, err := srv.DescribeDataset(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := e.Needs().Missing(d)
	if !reflect.DeepEqual(m, lab.DataNeeds{Tables: []int{3}, Rows: 20}) {
		t.Errorf("plain Chinook lacks %+v, want gen3 and 20 rows of big_rows", m)
	}
	if got := srv.FixtureCommand() + " " + lab.FixtureFlags(m, d); got != "lab fixture chinook --dir /var/lab --tables 3 --rows 20" {
		t.Errorf("command %q", got)
	}
	srv.cfg.AdminURI = extra.UnixURI("postgres")
	if d, err = srv.DescribeDataset(ctx); err != nil || !e.Needs().Missing(d).None() {
		t.Errorf("generated with gen3 and big_rows, yet missing %+v (%v)", e.Needs().Missing(d), err)
	}
	if (&Server{cfg: Config{StateDir: "/x"}}).FixtureCommand() != "" {
		t.Error("an existing server's database is not the lab's to load")
	}
}
