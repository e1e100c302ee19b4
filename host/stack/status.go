package stack

import (
	"context"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Unit is one of the stack's services as its supervisor sees it.
type Unit struct {
	Name  string `json:"name"`
	State string `json:"state"` // active, inactive, failed, ... ("not-installed" after down)
	PID   int    `json:"pid"`
}

// Status describes a stack: who supervises it, its units, how to reach
// PostgreSQL and the target.
type Status struct {
	Dir         string       `json:"dir"`
	Supervisor  systemd.Kind `json:"supervisor"` // systemd-user or direct
	Description string       `json:"supervisor_description"`
	Postgres    Unit         `json:"postgres"`
	Target      *Unit        `json:"target,omitempty"`    // nil when no target runs
	NoTarget    string       `json:"no_target,omitempty"` // why, then

	PGHost      string `json:"pg_host"`
	PGPort      int    `json:"pg_port"`
	PGSocketDir string `json:"pg_socket_dir"`
	PGDataDir   string `json:"pg_data_dir"`
	Database    string `json:"database"`
	TCPURI      string `json:"tcp_uri"`   // as authenticator, the target's role
	UnixURI     string `json:"unix_uri"`  // as authenticator, over the socket
	AdminURI    string `json:"admin_uri"` // superuser, over the socket

	Config    string `json:"config,omitempty"`
	URL       string `json:"url,omitempty"`
	AdminURL  string `json:"admin_url,omitempty"`
	Binary    string `json:"binary,omitempty"`
	Reference bool   `json:"reference"` // the bundled postgrest-mini, not PostgREST
	// TargetUser runs the target and its twin (never root).
	TargetUser string `json:"target_user,omitempty"`
	// Twin is the second target of duet runs, once one started it (nil
	// before); TwinURL its API.
	Twin    *Unit  `json:"twin,omitempty"`
	TwinURL string `json:"twin_url,omitempty"`

	// Controller is the supervisor in use, for restarts and telemetry.
	Controller systemd.Controller `json:"-"`
}

// Running reports whether PostgreSQL and (when there is one) the target are active.
func (st Status) Running() bool {
	return st.Postgres.State == "active" && (st.Target == nil || st.Target.State == "active")
}

// Status asks the supervisor about the stack's units.
func (s *Stack) Status(ctx context.Context) (Status, error) {
	ctrl, err := s.Controller(ctx)
	if err != nil {
		return Status{}, err
	}
	f := s.facts
	st := Status{
		Dir: f.Dir, Supervisor: ctrl.Kind(), Description: ctrl.Describe(), NoTarget: f.NoTarget,
		PGHost: "127.0.0.1", PGPort: f.PGPort, PGSocketDir: f.socketDir(), PGDataDir: f.dataDir(), Database: Database,
		TCPURI: f.tcpURI("authenticator"), UnixURI: f.unixURI("authenticator"), AdminURI: f.adminURI(Database),
		Controller: ctrl,
	}
	if st.Postgres, err = unitStatus(ctx, ctrl, f, pgUnitName(f.Dir)); err != nil {
		return Status{}, err
	}
	if f.TargetUnit != "" {
		u, err := unitStatus(ctx, ctrl, f, f.TargetUnit)
		if err != nil {
			return Status{}, err
		}
		st.Target = &u
		st.Config, st.URL, st.AdminURL, st.Binary, st.Reference = f.configPath(), f.url(), f.adminURL(), f.Binary, f.Reference
		st.TargetUser = f.TargetUser
	}
	if f.installed(f.TwinUnit) {
		u, err := unitStatus(ctx, ctrl, f, f.TwinUnit)
		if err != nil {
			return Status{}, err
		}
		st.Twin, st.TwinURL = &u, f.twin().URL
	}
	return st, nil
}

// unitStatus reads a unit's state; "not-installed" when the stack has not
// installed it (or removed it on down).
func unitStatus(ctx context.Context, ctrl systemd.Controller, f Facts, name string) (Unit, error) {
	if !f.installed(name) {
		return Unit{Name: name, State: "not-installed"}, nil
	}
	p, err := ctrl.Properties(ctx, name)
	if err != nil {
		return Unit{}, fmt.Errorf("status of %s: %w", name, err)
	}
	state := p.ActiveState
	if p.LoadState == "not-found" {
		state = "not-installed"
	}
	return Unit{Name: name, State: state, PID: p.MainPID}, nil
}
