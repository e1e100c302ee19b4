package configs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/didyoumean"
)

// PGChange is one PostgreSQL setting the lab changed with ALTER SYSTEM:
// its original state in postgresql.auto.conf (absent, or a value) and what
// the lab set.
type PGChange struct {
	Name       string `json:"name"`
	Context    string `json:"context"` // pg_settings.context: postmaster needs a restart
	InAutoConf bool   `json:"in_auto_conf"`
	Original   string `json:"original,omitempty"`
	// Set is what postgresql.auto.conf holds after the lab's ALTER SYSTEM,
	// as pg_file_settings shows it (PostgreSQL's quoting of list
	// elements), or, until that is journalled, the value as given.
	Set string `json:"set"`
}

// PGSetting describes a PostgreSQL setting from pg_settings.
type PGSetting struct {
	Name, Setting, Unit, Context, VarType string
	PendingRestart                        bool
}

// NeedsRestart reports whether a change takes effect only after a server
// restart (context postmaster); other contexts take effect on reload.
func (s PGSetting) NeedsRestart() bool { return s.Context == "postmaster" }

// PGSettings reads the named settings from pg_settings; an unknown name is
// an error suggesting the closest known setting.
func PGSettings(ctx context.Context, conn *pgx.Conn, names []string) (map[string]PGSetting, error) {
	rows, err := conn.Query(ctx, `SELECT name, setting, coalesce(unit, ''), context, vartype, pending_restart FROM pg_settings`)
	if err != nil {
		return nil, fmt.Errorf("read pg_settings: %w", err)
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PGSetting, error) {
		var s PGSetting
		err := r.Scan(&s.Name, &s.Setting, &s.Unit, &s.Context, &s.VarType, &s.PendingRestart)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("read pg_settings: %w", err)
	}
	byName := make(map[string]PGSetting, len(all))
	for _, s := range all {
		byName[s.Name] = s
	}
	out := map[string]PGSetting{}
	for _, n := range names {
		s, ok := byName[strings.ToLower(n)]
		if !ok {
			msg := fmt.Sprintf("unknown PostgreSQL setting %q", n)
			if best := didyoumean.Suggest(n, settingNames(all)); best != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", best)
			}
			return nil, errors.New(msg)
		}
		out[n] = s
	}
	return out, nil
}

// autoConf reads the values postgresql.auto.conf sets (the last of each
// name) and its raw bytes. Needs a superuser (or pg_read_server_files).
func autoConf(ctx context.Context, conn *pgx.Conn) (map[string]string, []byte, error) {
	var raw string
	if err := conn.QueryRow(ctx, `SELECT coalesce(pg_read_file('postgresql.auto.conf', 0, 10485760, true), '')`).Scan(&raw); err != nil {
		return nil, nil, fmt.Errorf("read postgresql.auto.conf: %w", err)
	}
	rows, err := conn.Query(ctx, `SELECT name, coalesce(setting, '') FROM pg_file_settings
		WHERE sourcefile LIKE '%/postgresql.auto.conf' ORDER BY seqno`)
	if err != nil {
		return nil, nil, fmt.Errorf("read pg_file_settings: %w", err)
	}
	vals := map[string]string{}
	var name, val string
	_, err = pgx.ForEachRow(rows, []any{&name, &val}, func() error { vals[name] = val; return nil })
	if err != nil {
		return nil, nil, fmt.Errorf("read pg_file_settings: %w", err)
	}
	return vals, []byte(raw), nil
}

// clusterPath names a PostgreSQL cluster in the journal.
func clusterPath(ctx context.Context, conn *pgx.Conn) (string, error) {
	var dd string
	if err := conn.QueryRow(ctx, `SELECT current_setting('data_directory')`).Scan(&dd); err != nil {
		return "", fmt.Errorf("identify PostgreSQL cluster: %w", err)
	}
	return "postgresql:" + dd, nil
}

// reload asks PostgreSQL to re-read its configuration and waits (up to
// 5 s) until this session has re-read it, so pending_restart is current.
func reload(ctx context.Context, conn *pgx.Conn) error {
	var before time.Time
	if err := conn.QueryRow(ctx, `SELECT pg_conf_load_time()`).Scan(&before); err != nil {
		return fmt.Errorf("reload: %w", err)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_reload_conf()`); err != nil {
		return fmt.Errorf("reload: %w", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		var now time.Time
		if err := conn.QueryRow(ctx, `SELECT pg_conf_load_time()`).Scan(&now); err != nil {
			return fmt.Errorf("reload: %w", err)
		}
		if now.After(before) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("reload: configuration not re-read within 5s")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func pendingRestart(ctx context.Context, conn *pgx.Conn, names []string) (bool, error) {
	var pending bool
	err := conn.QueryRow(ctx, `SELECT coalesce(bool_or(pending_restart), false) FROM pg_settings WHERE name = ANY($1)`, names).Scan(&pending)
	if err != nil {
		return false, fmt.Errorf("read pending_restart: %w", err)
	}
	return pending, nil
}

func settingNames(all []PGSetting) []string {
	out := make([]string, len(all))
	for i, s := range all {
		out[i] = s.Name
	}
	return out
}
