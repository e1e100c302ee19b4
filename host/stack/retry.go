package stack

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// startAttempts bounds how often a unit is started on new ports after
// another process took a port between choosing and binding it.
const startAttempts = 3

// startRetrying runs start; when it fails because a port it chose itself
// was taken meanwhile (the log says "address already in use"), it removes
// the unit, lets repick choose new ports, and tries again.
func (s *Stack) startRetrying(ctx context.Context, ownPorts bool, log string, rollback *undo, progress func(string, ...any), start, repick func() error) error {
	for attempt := 1; ; attempt++ {
		before := len(*rollback)
		err := start()
		if err == nil || !ownPorts || attempt == startAttempts || !portTaken(err, filepath.Join(s.facts.logDir(), log)) {
			return err
		}
		(*rollback)[before:].run(ctx) // remove just the unit this attempt installed
		*rollback = (*rollback)[:before]
		if err := repick(); err != nil {
			return err
		}
		progress("a port was taken meanwhile; retrying on new ports (attempt %d of %d)", attempt+1, startAttempts)
	}
}

// portTaken reports whether err or the end of the log says a bind failed.
func portTaken(err error, log string) bool {
	const msg = "address already in use"
	if strings.Contains(strings.ToLower(err.Error()), msg) {
		return true
	}
	fh, ferr := os.Open(log)
	if ferr != nil {
		return false
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err == nil && fi.Size() > 4096 {
		_, _ = fh.Seek(-4096, io.SeekEnd)
	}
	tail, _ := io.ReadAll(fh)
	return strings.Contains(strings.ToLower(string(tail)), msg)
}
