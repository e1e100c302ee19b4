// Package supervisor connects the lab to whatever supervises services on
// this host: Connect returns a systemd.Controller for systemd's system or
// user manager over D-Bus (package systemd) when one answers, and
// otherwise for the direct supervisor (package systemd/supervisor/direct). It is its
// own package because it imports both: the direct supervisor imports
// package systemd for the shared types, so systemd cannot import it.
//
//	ctl, err := supervisor.Connect(ctx, supervisor.Options{Logf: log.Printf})
//	// systemd: using the systemd user manager via /run/user/0/systemd/private; not used: ...
//	ctl, err = supervisor.Connect(ctx, supervisor.Options{Mode: systemd.ModeDirect, StateDir: dir})
package supervisor
