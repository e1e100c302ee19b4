package configs

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSplitList(t *testing.T) {
	for _, c := range []struct {
		in    string
		ident bool
		want  []string // nil with err
		err   bool
	}{
		{"public, x", true, []string{"public", "x"}, false},
		{`"$user", Public ,"My ""S"""`, true, []string{"$user", "public", `My "S"`}, false},
		{"  ", true, nil, false},
		{"a b", true, nil, true},
		{"a,,b", true, nil, true},
		{"a,", true, nil, true},
		{`"a`, true, nil, true},
		{`""`, true, nil, true},
		{"/tmp/my dir, Lib", false, []string{"/tmp/my dir", "Lib"}, false},
		{`""`, false, []string{""}, false},
	} {
		got, err := splitList(c.in, c.ident)
		if (err != nil) != c.err || (!c.err && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("splitList(%q, %v) = %q, %v; want %q (error %v)", c.in, c.ident, got, err, c.want, c.err)
		}
	}
}

// TestListSettingRestores: search_path = "public, x" is the list public,
// x, as in postgresql.conf; PostgreSQL's own quoting of what it writes is
// no conflict, and the restore puts postgresql.auto.conf back byte for
// byte, with an administrator's list value in it or none.
func TestListSettingRestores(t *testing.T) {
	ctx := context.Background()
	_, conn := pgConn(t)
	resetAll(t, conn, "search_path")
	for _, admin := range []string{"", `'$user', 'public', 'My Schema'`} {
		if admin != "" {
			if _, err := conn.Exec(ctx, "ALTER SYSTEM SET search_path = "+admin); err != nil {
				t.Fatal(err)
			}
		} else if _, err := conn.Exec(ctx, "ALTER SYSTEM RESET search_path"); err != nil {
			t.Fatal(err)
		}
		if err := reload(ctx, conn); err != nil {
			t.Fatal(err)
		}
		before := autoConfBytes(t, conn)
		for _, c := range []struct{ val, show, line string }{
			{"public, x", "public, x", `search_path = 'public, x'`},
			{`"it's", Public, "a ""b"""`, `"it's", public, "a ""b"""`, `search_path = '"it''s", public, "a ""b"""'`},
			{"", `""`, `search_path = '""'`},
		} {
			state := t.TempDir()
			j, _ := OpenJournal(state)
			if _, err := ApplyPGSettings(ctx, conn, j, map[string]string{"search_path": c.val}); err != nil {
				t.Fatalf("apply search_path = %q (admin %s): %v", c.val, admin, err)
			}
			if got := show(t, conn, "search_path"); got != c.show {
				t.Errorf("search_path = %q: in effect %q, want %q", c.val, got, c.show)
			}
			if got := string(autoConfBytes(t, conn)); !strings.Contains(got, "\n"+c.line+"\n") {
				t.Errorf("search_path = %q: postgresql.auto.conf\n%s\nwant the line %s", c.val, got, c.line)
			}
			// Applying again over the lab's own value is no conflict.
			if _, err := ApplyPGSettings(ctx, conn, j, map[string]string{"search_path": c.val}); err != nil {
				t.Fatalf("apply search_path = %q again: %v", c.val, err)
			}
			// The next start after kill -9: a fresh journal over the state dir.
			j2, _ := OpenJournal(state)
			if _, err := RestorePGSettings(ctx, conn, j2); err != nil {
				t.Fatalf("restore after search_path = %q (admin %s): %v", c.val, admin, err)
			}
			if got := autoConfBytes(t, conn); string(got) != string(before) {
				t.Fatalf("search_path = %q: postgresql.auto.conf not restored byte for byte:\n%s\nwant\n%s", c.val, got, before)
			}
			if len(j2.Pending()) != 0 {
				t.Fatalf("journal not cleared: %v", j2.Pending())
			}
		}
	}
}

// TestListSettingKilledBeforeJournalled: a run killed after ALTER SYSTEM
// but before journalling what PostgreSQL wrote (or a journal of a lab that
// gave the list as one literal, which ALTER SYSTEM wrote as one quoted
// name) restores on the next start.
func TestListSettingKilledBeforeJournalled(t *testing.T) {
	ctx := context.Background()
	_, conn := pgConn(t)
	resetAll(t, conn, "search_path")
	before := autoConfBytes(t, conn)
	path, err := clusterPath(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, written := range []string{"'public', 'x'", "'Public, x'"} {
		j, _ := OpenJournal(t.TempDir())
		e := &Entry{Kind: EntryPG, Path: path, Existed: true, Original: before, OriginalSHA256: hashOf(before),
			PG: []PGChange{{Name: "search_path", Context: "user", Set: "Public, x"}}, Started: time.Now().UTC(), PID: os.Getpid()}
		if err := j.save(e); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "ALTER SYSTEM SET search_path = "+written); err != nil {
			t.Fatal(err)
		}
		if _, err := RestorePGSettings(ctx, conn, j); err != nil {
			t.Fatalf("ALTER SYSTEM SET search_path = %s, journal Public, x: %v", written, err)
		}
		if got := autoConfBytes(t, conn); string(got) != string(before) {
			t.Fatalf("postgresql.auto.conf not restored:\n%s", got)
		}
	}
}

// TestListSettingOffline: the offline restore puts the journal's bytes
// back whatever the list value.
func TestListSettingOffline(t *testing.T) {
	ctx := context.Background()
	_, conn := pgConn(t)
	resetAll(t, conn, "search_path")
	before := autoConfBytes(t, conn)
	j, _ := OpenJournal(t.TempDir())
	if _, err := ApplyPGSettings(ctx, conn, j, map[string]string{"search_path": `public, "a'b"`}); err != nil {
		t.Fatal(err)
	}
	if _, err := RestorePGSettingsOffline(j); err != nil {
		t.Fatal(err)
	}
	if err := reload(ctx, conn); err != nil {
		t.Fatal(err)
	}
	if got := autoConfBytes(t, conn); string(got) != string(before) {
		t.Fatalf("postgresql.auto.conf not restored:\n%s\nwant\n%s", got, before)
	}
	if v, _, _ := autoConf(ctx, conn); v["search_path"] != "" {
		t.Fatalf("search_path still set: %v", v)
	}
}

func TestListSettingBadList(t *testing.T) {
	ctx := context.Background()
	_, conn := pgConn(t)
	resetAll(t, conn, "search_path")
	j, _ := OpenJournal(t.TempDir())
	if _, err := ApplyPGSettings(ctx, conn, j, map[string]string{"search_path": "a,,b"}); err == nil || !strings.Contains(err.Error(), "empty element") {
		t.Fatalf("search_path = a,,b: %v", err)
	}
	if _, err := RestorePGSettings(ctx, conn, j); err != nil {
		t.Fatal(err)
	}
}
