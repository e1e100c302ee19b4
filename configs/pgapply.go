package configs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// ApplyPGSettings sets PostgreSQL settings (name -> value, e.g.
// "synchronous_commit": "off", "shared_buffers": "256MB") with ALTER
// SYSTEM and reloads the configuration. Before changing anything it
// journals (fsynced) each setting's original state in postgresql.auto.conf
// and the file's bytes; settings already journalled keep their first
// original. needRestart reports that a changed setting takes effect only
// after a server restart (pg_settings.pending_restart, i.e. context
// postmaster and a different value). Needs a superuser connection.
// Undo with RestorePGSettings.
func ApplyPGSettings(ctx context.Context, conn *pgx.Conn, j *Journal, settings map[string]string) (needRestart bool, err error) {
	if len(settings) == 0 {
		return false, nil
	}
	names := slices.Sorted(maps.Keys(settings))
	info, err := PGSettings(ctx, conn, names)
	if err != nil {
		return false, err
	}
	for _, n := range names {
		if c := info[n].Context; c == "internal" {
			return false, fmt.Errorf("PostgreSQL setting %s cannot be changed (context %s)", n, c)
		}
	}
	path, err := clusterPath(ctx, conn)
	if err != nil {
		return false, err
	}
	unlock, err := j.lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	auto, raw, err := autoConf(ctx, conn)
	if err != nil {
		return false, err
	}
	e, err := j.load(EntryPG, path)
	if err != nil {
		return false, err
	}
	if e == nil {
		e = &Entry{Kind: EntryPG, Path: path, Existed: true, Original: raw, OriginalSHA256: hashOf(raw),
			Started: time.Now().UTC(), PID: os.Getpid()}
	}
	for _, n := range names {
		canon := info[n].Name
		i := e.change(canon)
		if i < 0 {
			orig, in := auto[canon]
			e.PG = append(e.PG, PGChange{Name: canon, Context: info[n].Context, InAutoConf: in, Original: orig})
			i = len(e.PG) - 1
		} else if c := e.PG[i]; !c.matches(auto) {
			return false, &ConflictError{Path: path, Detail: fmt.Sprintf("%s in postgresql.auto.conf is %s, the lab set %q", canon, describeAuto(auto, canon), c.Set)}
		}
		e.PG[i].Set = settings[n]
	}
	if err := j.save(e); err != nil {
		return false, err
	}
	// The journal then holds what PostgreSQL wrote, in its own quoting
	// (list settings): the value a restore or the next start compares.
	for _, n := range names {
		v := settings[n]
		got, _, err := setSetting(ctx, conn, info[n].Name, &v)
		if err != nil {
			return false, err
		}
		e.PG[e.change(info[n].Name)].Set = got
	}
	if err := j.save(e); err != nil {
		return false, err
	}
	if err := reload(ctx, conn); err != nil {
		return false, err
	}
	return pendingRestart(ctx, conn, canonNames(info))
}

func (e *Entry) change(name string) int {
	for i, c := range e.PG {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// matches reports whether postgresql.auto.conf holds what the lab set or
// the original (a run may have stopped before or after ALTER SYSTEM),
// compared as PostgreSQL writes them (sameSetting): a run killed between
// ALTER SYSTEM and journalling its result left the value as given.
func (c PGChange) matches(auto map[string]string) bool {
	v, in := auto[c.Name]
	if in && sameSetting(c.Name, v, c.Set) {
		return true
	}
	return in == c.InAutoConf && (!in || sameSetting(c.Name, v, c.Original))
}

func describeAuto(auto map[string]string, name string) string {
	if v, ok := auto[name]; ok {
		return fmt.Sprintf("%q", v)
	}
	return "unset"
}

func canonNames(info map[string]PGSetting) []string {
	var out []string
	for _, s := range info {
		out = append(out, s.Name)
	}
	return out
}

// RestorePGSettings puts back the journalled ALTER SYSTEM state of the
// cluster conn is connected to (a value, or RESET when the setting was not
// in postgresql.auto.conf), reloads, and clears the journal entry. A
// setting someone else changed since is left alone and reported as a
// *ConflictError (its entry kept). needRestart reports that a restored
// setting takes effect only after a restart. Call it on start when
// Pending lists an entry of kind "pg".
func RestorePGSettings(ctx context.Context, conn *pgx.Conn, j *Journal) (needRestart bool, err error) {
	path, err := clusterPath(ctx, conn)
	if err != nil {
		return false, err
	}
	unlock, err := j.lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	e, err := j.load(EntryPG, path)
	if err != nil || e == nil {
		return false, err
	}
	auto, _, err := autoConf(ctx, conn)
	if err != nil {
		return false, err
	}
	var kept []PGChange
	var names []string
	var errs []error
	for _, c := range e.PG {
		if !c.matches(auto) {
			kept = append(kept, c)
			errs = append(errs, &ConflictError{Path: path, Detail: fmt.Sprintf("%s in postgresql.auto.conf is %s, the lab set %q (originally %s)",
				c.Name, describeAuto(auto, c.Name), c.Set, map[bool]string{true: fmt.Sprintf("%q", c.Original), false: "unset"}[c.InAutoConf])})
			continue
		}
		var v *string
		if c.InAutoConf {
			v = &c.Original
		}
		if _, _, err := setSetting(ctx, conn, c.Name, v); err != nil {
			return false, err
		}
		names = append(names, c.Name)
	}
	if err := reload(ctx, conn); err != nil {
		return false, err
	}
	if len(kept) == 0 {
		if err := j.drop(e); err != nil {
			return false, err
		}
	} else {
		e.PG = kept
		if err := j.save(e); err != nil {
			return false, err
		}
	}
	needRestart, err = pendingRestart(ctx, conn, names)
	if err != nil {
		return false, err
	}
	if len(errs) > 0 {
		return needRestart, fmt.Errorf("restore PostgreSQL settings: %w (kept in journal: %s)", errors.Join(errs...), strings.Join(namesOf(kept), ", "))
	}
	return needRestart, nil
}

func namesOf(cs []PGChange) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}
