package lab

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// checkingServer is a server whose host cannot apply a variant's drop-in.
type checkingServer struct {
	fakeServer
	checked []Variant
}

func (c *checkingServer) CheckVariants(_ context.Context, vs []Variant) error {
	c.checked = vs
	for _, v := range vs {
		if v.DropIn["MemoryMax"] != "" {
			return errors.New(`variant "` + v.Name + `": dropin: MemoryMax= needs systemd; the direct supervisor supports only CPUAffinity`)
		}
	}
	return nil
}

// A variant the server cannot apply ends the run before the first trial
// (nothing applied, nothing restored), with the server's reason; the
// server sees the variants as Apply would ([partition] postgrest included).
func TestRunnerChecksVariantsBeforeTheFirstTrial(t *testing.T) {
	e := testExperiment()
	e.Variants[1].DropIn = map[string]string{"MemoryMax": "64M"}
	srv := &checkingServer{}
	_, err := (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), e)
	if err == nil || !strings.Contains(err.Error(), "before the first trial") || !strings.Contains(err.Error(), "MemoryMax= needs systemd") {
		t.Fatalf("run with a setting the server cannot apply: %v", err)
	}
	if len(srv.applied) != 0 || srv.restores != 0 {
		t.Errorf("applied %v, restores %d: want nothing touched", srv.applied, srv.restores)
	}
	e = testExperiment()
	e.Partition.PostgREST = "0"
	srv = &checkingServer{}
	if _, err := (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if len(srv.checked) != 2 || srv.checked[0].DropIn["CPUAffinity"] != "0" {
		t.Errorf("checked %+v, want both variants with the partition's CPUAffinity", srv.checked)
	}
}
