package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// source is the experiment file format the command line wires in.
var source = Source{Read: experiments.Load, Expand: experiments.Expand}

// checker records the experiments it was asked about.
type checker struct {
	seen []*lab.Experiment
	err  error
}

func (c *checker) check(e *lab.Experiment) error {
	c.seen = append(c.seen, e)
	return c.err
}

// Load applies the edits before $(VAR)s and the overrides after them,
// then validates what will run once, with the requests.
func TestLoadEditsOverridesAndValidatesOnce(t *testing.T) {
	c := &checker{}
	w := time.Duration(0)
	edited := false
	e, err := Load(source, "socket-vs-tcp", Edits{
		Edit:      []func(*lab.Experiment) error{func(*lab.Experiment) error { edited = true; return nil }},
		MinTrials: 3, MaxTrials: 5, Duration: 2 * time.Second, Warmup: &w, Profile: true,
	}, c.check)
	if err != nil {
		t.Fatal(err)
	}
	if !edited || e.Trials.Min != 3 || e.Trials.Max != 5 || e.Load.Duration != 2*time.Second || e.Load.Warmup != 0 || !e.Profile {
		t.Errorf("edits not applied: edited %v, trials %d..%d, load %v after %v, profile %v", edited, e.Trials.Min, e.Trials.Max, e.Load.Duration, e.Load.Warmup, e.Profile)
	}
	if len(c.seen) != 1 || c.seen[0] != e {
		t.Errorf("requests checked %d times, want once on the loaded experiment", len(c.seen))
	}

	// An override that makes it invalid is refused, as ErrInvalid.
	_, err = Load(source, "socket-vs-tcp", Edits{MinTrials: 9, MaxTrials: 4}, nil)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "socket-vs-tcp") {
		t.Errorf("min 9 > max 4: %v, want ErrInvalid naming the experiment", err)
	}
	// --min-rate and --max-rate bound the capacity search of search and
	// efficiency experiments; on another model they are refused, naming
	// it, and a max below the min is refused by the validation, naming
	// the key.
	e, err = Load(source, "socket-vs-tcp", Edits{MinRate: 500, MaxRate: 500}, nil)
	if err != nil || e.Load.Limit.MinRate != 500 || e.Load.Limit.MaxRate != 500 {
		t.Errorf("rates 500..500 on an efficiency experiment: %v, limit %+v", err, e.Load.Limit)
	}
	if _, err := Load(source, "loadtest", Edits{MaxRate: 500}, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `load.model "closed" searches none`) {
		t.Errorf("--max-rate on a closed experiment: %v", err)
	}
	if _, err := Load(source, "socket-vs-tcp", Edits{MinRate: 900, MaxRate: 500}, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "load.limit.max_rate") {
		t.Errorf("max 500 < min 900: %v", err)
	}
	// So is one whose requests cannot be sent.
	c = &checker{err: errors.New("t.http:3: bad line")}
	if _, err := Load(source, "socket-vs-tcp", Edits{}, c.check); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "t.http:3: bad line") {
		t.Errorf("bad requests: %v", err)
	}
}

// The stop rule is stats.DecidedFunc unless one is given.
func TestOptionsRunnerHasTheStopRule(t *testing.T) {
	if (Options{}).Runner().Decided == nil {
		t.Fatal("Options.Runner has no stop rule")
	}
	calls := 0
	r := (Options{Decided: func(*lab.Run) bool { calls++; return true }}).Runner()
	r.Decided(nil)
	if calls != 1 {
		t.Error("Options.Decided not used")
	}
}

// per_line (--per-line) splits the targets file the run replays into one
// scenario per request, after --targets has replaced the file's; without
// a targets file it is refused, saying so; lab ab's scenarios drop the
// targets file and per_line with it.
func TestLoadPerLine(t *testing.T) {
	src := source
	var read []string
	src.Lines = func(path string) ([]lab.TargetLine, error) {
		read = append(read, path)
		return []lab.TargetLine{{Method: "GET", Path: "/artist?x=1"}, {Method: "POST", Path: "/employee"}}, nil
	}
	e, err := Load(src, "binaries", Edits{PerLine: true, Lookup: func(string) (string, bool) { return "/bin/true", true }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != 1 || !strings.HasSuffix(read[0], "targets.http") {
		t.Errorf("lines read from %v", read)
	}
	if strings.Join(e.Scenarios, ",") != "GET-artist,POST-employee" || len(e.Custom) != 2 || e.Custom[1].Line != 2 {
		t.Errorf("scenarios %v, custom %+v", e.Scenarios, e.Custom)
	}
	_, err = Load(src, "socket-vs-tcp", Edits{PerLine: true}, nil)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "replays none") {
		t.Errorf("per_line without a targets file: %v", err)
	}
	e, err = Load(src, "binaries", Edits{PerLine: true, Lookup: func(string) (string, bool) { return "/bin/true", true },
		Edit: []func(*lab.Experiment) error{func(e *lab.Experiment) error { e.UseScenarios([]string{"GETSingle"}); return nil }}}, nil)
	if err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("--per-line with lab ab's scenarios: %v (scenarios %v), want refused", err, e)
	}
}

// --price prices the host ([cost] hour), so the limits table's cost of a
// million requests answers without a [cost] section; a price that is no
// price is refused, naming the key.
func TestLoadPrice(t *testing.T) {
	e, err := Load(source, "limits", Edits{Price: 0.34}, nil)
	if err != nil || e.Cost.Hour != 0.34 || !e.Cost.Set() {
		t.Fatalf("--price 0.34: %v, cost %+v", err, e.Cost)
	}
	if got := e.Cost.PerMillion("", lab.Host{}, 1000); got < 0.0944 || got > 0.0945 {
		t.Errorf("a million requests at 1000 req/s for 0.34 an hour: %v, want 0.0944", got)
	}
	if _, err := Load(source, "limits", Edits{Price: -1}, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "hour = -1") {
		t.Errorf("--price -1: %v, want ErrInvalid naming hour", err)
	}
}
