package telemetry

import (
	"errors"
	"fmt"
	"strings"
)

// Source is one watched service. With ControlGroup set (systemd's
// ControlGroup property, e.g. "/app.slice/lab-postgrest.service") its
// processes and CPU time come from the cgroup; otherwise from the process
// tree under RootPID (direct supervision).
type Source struct {
	Name         string
	ControlGroup string
	RootPID      int
}

// Validate lists what is wrong with the source, naming it.
func (s Source) Validate() []error {
	var errs []error
	if s.Name == "" {
		errs = append(errs, errors.New("source: Name is empty"))
	}
	if s.ControlGroup == "" && s.RootPID <= 0 {
		errs = append(errs, fmt.Errorf("source %q: set ControlGroup (e.g. /app.slice/x.service) or RootPID > 0", s.Name))
	}
	if s.ControlGroup != "" && !strings.HasPrefix(s.ControlGroup, "/") {
		errs = append(errs, fmt.Errorf("source %q: ControlGroup %q must start with /", s.Name, s.ControlGroup))
	}
	return errs
}
