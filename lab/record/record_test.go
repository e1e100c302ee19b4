package record_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/golden"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// realRun is a run.json written by `lab run` before package record existed
// (TestEfficiencyRunTiny on the real PostgREST): an efficiency run, with
// capacity searches, interference and speed references.
const realRun = "testdata/run-efficiency-real.json"

// TestReadRealRun: a run.json of an earlier lab loads, and is written back
// byte for byte.
func TestReadRealRun(t *testing.T) {
	want, err := os.ReadFile(realRun)
	if err != nil {
		t.Fatal(err)
	}
	run, err := record.Read(realRun)
	if err != nil {
		t.Fatal(err)
	}
	if run.Experiment.Load.Model != lab.ModelEfficiency || len(run.Variants) != 2 || len(run.Trials) == 0 || len(run.Capacity) != 1 ||
		run.Target.Supervisor != "direct" || run.Trials[0].Load.Model != lab.ModelOpen || run.Trials[0].Interference == nil ||
		run.Trials[0].Server.CPUSeconds <= 0 || run.Trials[0].SpeedRefNs <= 0 {
		t.Fatalf("read %s: %+v", realRun, run)
	}
	got, err := record.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not written back as it was:\n%s", realRun, firstDiff(got, want))
	}
}

// TestGolden: a run with every field set encodes exactly as
// testdata/golden/run.json (a renamed field fails here) and reads back as
// the same run (a field lab.Run has and the record lacks fails here).
func TestGolden(t *testing.T) {
	run := fullRun()
	dir := t.TempDir()
	if err := record.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, record.File))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden", "run.json")
	want := golden.File(t, path, got)
	if !bytes.Equal(got, want) {
		t.Fatalf("run.json changed (earlier labs' records would not load the same):\n%s", firstDiff(got, want))
	}
	back, err := record.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, run) {
		t.Fatalf("golden run.json reads back as\n%+v\nwant\n%+v", back, run)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("Write left %d files, want run.json alone: %v", len(entries), entries)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ body, want string }{
		"newer":  {`{"schema": 2}`, "schema 2 is newer than this lab's 1: upgrade the lab"},
		"syntax": {`{"schema": 1,`, "at byte"},
		"type":   {`{"schema": "1"}`, "cannot unmarshal"},
	} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := record.Read(path); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %q naming the file", name, err, c.want)
		}
	}
	if _, err := record.Read(filepath.Join(dir, "missing.json")); err == nil || !strings.HasPrefix(err.Error(), "load run: ") {
		t.Errorf("missing file: %v", err)
	}
}

// fullRun is a run with every field of lab.Run and its parts set to a
// value of its own (except the JWT secret, which the record never holds).
func fullRun() *lab.Run {
	run := &lab.Run{}
	f := filler{t0: time.Date(2026, 11, 30, 12, 0, 0, 123456789, time.UTC)}
	f.fill(reflect.ValueOf(run).Elem())
	run.Schema = lab.RecordSchema
	run.Experiment.JWTSecret = ""
	return run
}

type filler struct {
	n  int
	t0 time.Time
}

func (f *filler) fill(v reflect.Value) {
	f.n++
	switch v.Type() {
	case reflect.TypeOf(time.Time{}):
		v.Set(reflect.ValueOf(f.t0.Add(time.Duration(f.n) * time.Second)))
		return
	case reflect.TypeOf(time.Duration(0)):
		v.SetInt(int64(f.n) * int64(time.Millisecond))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		f.fill(v.Index(0))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		f.fill(k)
		f.fill(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.String:
		v.SetString(v.Type().Name() + "-" + string(rune('a'+f.n%26)) + strings.Repeat("x", f.n/26))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(f.n))
	case reflect.Uint64:
		v.SetUint(uint64(f.n) << 20)
	case reflect.Float64:
		v.SetFloat(float64(f.n) + 0.25)
	default:
		panic("fullRun: no value for " + v.Type().String())
	}
}

// firstDiff shows where two JSON texts part.
func firstDiff(got, want []byte) string {
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < min(len(gl), len(wl)); i++ {
		if gl[i] != wl[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(gl), len(wl))
}
