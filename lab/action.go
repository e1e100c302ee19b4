package lab

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Action is something the lab does to the server at a set time of every
// trial's measured part, under load: the schema-reload experiment's
// NOTIFY, a restart of the target, or SQL held open in a transaction (a
// lock that stalls the requests). The trial's timeline (lab/stats) shows
// what followed.
type Action struct {
	// At is when, from the start of the measured part.
	At time.Duration `toml:"at" json:"at"`
	// Do is what: ActionNotify, ActionRestart or ActionSQL.
	Do string `toml:"do" json:"do"`
	// SQL is ActionSQL's statements, run as the superuser in one
	// transaction that is committed after Hold (a lock taken in it is held
	// that long).
	SQL  string        `toml:"sql" json:"sql,omitempty"`
	Hold time.Duration `toml:"hold" json:"hold,omitempty"`
}

// Actions an experiment's [[action]] may do.
const (
	ActionNotify  = "notify"  // NOTIFY pgrst, 'reload schema': PostgREST reloads its schema cache
	ActionRestart = "restart" // restart the target (systemctl restart) and wait until it is ready
	ActionSQL     = "sql"     // run SQL in a transaction held open for hold
)

var actionKinds = []string{ActionNotify, ActionRestart, ActionSQL}

// EventAction is an Action the lab did during a trial: T is when it began,
// Duration how long it took (the hold, the restart to ready, the NOTIFY's
// round trip).
const EventAction EventKind = "action"

// EventSchemaCache is the target's own word that its schema cache was
// (re)loaded, from its log: Duration is the time it says the load took.
const EventSchemaCache EventKind = "schema-cache"

// Actor is a Server that can do an experiment's actions during a trial.
// Only the local server side is one; the runner refuses a run with
// actions on a Server that is not.
type Actor interface {
	// Act prepares a (e.g. connects), does it at the time at and returns
	// once it is done (a restart: ready again; SQL: committed after its
	// hold; a NOTIFY: the schema cache reloaded, or ctx ended).
	Act(ctx context.Context, a Action, at time.Time) (Acted, error)
}

// Acted is what an Actor did: when the action began (zero when it never
// did) and what the server was seen doing because of it (EventSchemaCache).
type Acted struct {
	Began    time.Time
	Followed []Event
}

// Label is how reports name the action.
func (a Action) Label() string {
	switch a.Do {
	case ActionSQL:
		s := strings.Join(strings.Fields(a.SQL), " ")
		if len(s) > 60 {
			s = s[:57] + "..."
		}
		return fmt.Sprintf("sql %q held %s", s, a.Hold)
	case ActionNotify:
		return "NOTIFY pgrst, 'reload schema'"
	}
	return a.Do
}

func (v *validator) actions(e *Experiment) {
	for i, a := range e.Actions {
		el := fmt.Sprintf("action[%d]", i)
		if !slices.Contains(actionKinds, a.Do) {
			v.add(fmt.Sprintf("%q: must be one of %s", a.Do, strings.Join(actionKinds, ", ")), el, "do")
		}
		if a.At < 0 || a.At >= e.Load.Duration {
			v.add(fmt.Sprintf("%s must be within the measured part of a trial (0 to load.duration, %s)", a.At, e.Load.Duration), el, "at")
		}
		if (a.Do == ActionSQL) != (strings.TrimSpace(a.SQL) != "") {
			v.add("is required with do = \"sql\" and only then", el, "sql")
		}
		if a.Hold < 0 || (a.Hold > 0 && a.Do != ActionSQL) {
			v.add("is a duration for do = \"sql\" only", el, "hold")
		}
	}
	if len(e.Actions) > 0 {
		if e.Load.Model.SearchesEachTrial() || e.Load.Model.Efficiency() {
			v.add(fmt.Sprintf("actions need a steady load: model %q searches; use open or closed", e.Load.Model), "load", "model")
		}
		if e.Trials.Order == OrderDuet {
			v.add("actions act on the one target: not with trials.order = \"duet\"", "trials", "order")
		}
	}
}

// actions runs the experiment's actions against a trial's load that starts
// now; wait returns their events once all are done.
func (s *session) actions(ctx context.Context) (wait func() []Event) {
	if len(s.exp.Actions) == 0 {
		return func() []Event { return nil }
	}
	actor, _ := s.Server.(Actor) // checked before the first trial
	pending, cancel := context.WithCancel(ctx)
	start := time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var events []Event
	for _, a := range s.exp.Actions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acted, err := actor.Act(pending, a, start.Add(a.At))
			began := acted.Began
			if began.IsZero() {
				if err != nil && pending.Err() == nil {
					began = time.Now() // failed before it began: say so at the time
				} else {
					return // the load ended first
				}
			}
			ev := Event{T: began, Kind: EventAction, Source: "lab", Detail: a.Label(), Duration: time.Since(began)}
			if err != nil {
				ev.Detail += ": " + err.Error()
			}
			mu.Lock()
			events = append(append(events, ev), acted.Followed...)
			mu.Unlock()
		}()
	}
	return func() []Event {
		// The load is over: an action not yet begun is cancelled; one under
		// way sees the cancel only in its hold (a restart is not left half
		// done).
		cancel()
		wg.Wait()
		slices.SortFunc(events, func(a, b Event) int { return a.T.Compare(b.T) })
		return events
	}
}

// ScaleActions scales the actions' times and holds by the ratio of a new
// load.duration to the experiment's (`lab run --duration`), so a shortened
// trial keeps them at their places in it: a NOTIFY at 10 s of 30 s is at
// 2 s of 6 s. Times are kept to the millisecond.
func (e *Experiment) ScaleActions(duration time.Duration) {
	if e.Load.Duration <= 0 || duration == e.Load.Duration {
		return
	}
	f := float64(duration) / float64(e.Load.Duration)
	for i := range e.Actions {
		a := &e.Actions[i]
		a.At = time.Duration(float64(a.At) * f).Round(time.Millisecond)
		a.Hold = time.Duration(float64(a.Hold) * f).Round(time.Millisecond)
	}
}

// checkActions refuses a run with actions on a Server that cannot do them.
func checkActions(e *Experiment, srv Server) error {
	if len(e.Actions) == 0 {
		return nil
	}
	if _, ok := srv.(Actor); !ok {
		return fmt.Errorf("experiment %s has [[action]]s, which need the local server side (not --agent)", e.Name)
	}
	return nil
}
