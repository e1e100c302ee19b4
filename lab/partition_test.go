package lab

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// dropInServer records the drop-ins each Apply asked for.
type dropInServer struct {
	fakeServer
	dropIns    []map[string]string
	pgAffinity []string
	restarts   []bool
}

func (d *dropInServer) Apply(ctx context.Context, v Variant) (Applied, error) {
	d.dropIns = append(d.dropIns, v.DropIn)
	d.pgAffinity = append(d.pgAffinity, v.PGCPUAffinity)
	d.restarts = append(d.restarts, v.Restart)
	return d.fakeServer.Apply(ctx, v)
}

// Under a partition every variant runs with PostgREST's CPUs as its
// CPUAffinity and every load (warm-up included) on the generator's CPUs;
// the experiment itself is left as written.
func TestPartitionAppliesToEveryVariantAndLoad(t *testing.T) {
	e := testExperiment()
	e.Load.Warmup = 1
	e.Partition = Partition{Generator: "0", PostgREST: "1", PostgreSQL: "1-2"}
	srv, ld := &dropInServer{}, &specLoader{}
	if _, err := (&Runner{Server: srv, Loader: ld, Decided: FixedRounds}).Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if len(srv.dropIns) != 2*e.Trials.Max {
		t.Fatalf("%d applies", len(srv.dropIns))
	}
	for i, d := range srv.dropIns {
		if d["CPUAffinity"] != "1" {
			t.Errorf("apply %d: drop-in %v, want CPUAffinity=1", i, d)
		}
	}
	for i, a := range srv.pgAffinity {
		if a != "1-2" {
			t.Errorf("apply %d: PostgreSQL's CPUAffinity %q, want 1-2", i, a)
		}
	}
	for i, s := range ld.specs {
		if !slices.Equal(s.CPUs, []int{0}) {
			t.Errorf("load %d: CPUs %v, want [0]", i, s.CPUs)
		}
	}
	if e.Variants[0].DropIn != nil {
		t.Errorf("the experiment's variant was changed: %v", e.Variants[0].DropIn)
	}
}

func TestPartitionValidation(t *testing.T) {
	e := testExperiment()
	e.Partition = Partition{Generator: "0-1", PostgREST: "1", PostgreSQL: "0"}
	e.Variants[1].DropIn = map[string]string{"CPUAffinity": "0"}
	var msgs []string
	for _, err := range e.Validate() {
		msgs = append(msgs, err.Error())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{"partition.postgrest: CPU 1 is also the generator's: PostgREST and the generator must not share CPUs",
		"variant[1].dropin.CPUAffinity: set by [partition] postgrest for every variant; set one or the other"} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
	e = testExperiment()
	for _, pg := range []string{"1", "0", "0-1"} {
		e.Partition = Partition{Generator: "0", PostgREST: "1", PostgreSQL: pg}
		if errs := e.Validate(); len(errs) != 0 {
			t.Errorf("PostgreSQL on %s, sharing a CPU: %v", pg, errs)
		}
	}
	e.Partition = Partition{PostgreSQL: "zero"}
	if errs := e.Validate(); len(errs) != 1 || !strings.Contains(errs[0].Error(), `partition.postgresql: "zero" is not a CPU list`) {
		t.Errorf("errors %v", errs)
	}
	e = testExperiment()
	e.Partition.Generator = "zero"
	if errs := e.Validate(); len(errs) != 1 || !strings.Contains(errs[0].Error(), `partition.generator: "zero" is not a CPU list`) {
		t.Errorf("errors %v", errs)
	}
}

// [trials] fresh asks every Apply for a restart, never a config reload;
// without it the server chooses.
func TestFreshAsksEveryApplyForARestart(t *testing.T) {
	for _, fresh := range []bool{false, true} {
		e := testExperiment()
		e.Trials.Fresh = fresh
		srv := &dropInServer{}
		if _, err := (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		if len(srv.restarts) == 0 || slices.ContainsFunc(srv.restarts, func(r bool) bool { return r != fresh }) {
			t.Errorf("fresh = %v: Restart per Apply %v", fresh, srv.restarts)
		}
	}
}
