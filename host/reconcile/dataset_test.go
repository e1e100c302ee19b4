package reconcile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
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
