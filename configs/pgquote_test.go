package configs

import (
	"context"
	"testing"
)

// TestPGValueBackslashesAreLiteral: a value reaches ALTER SYSTEM as the
// one literal it is, also on a connection where standard_conforming_strings
// is off (a setting an agent's config may list), where '\” in an ordinary
// literal is an escaped quote: a value could otherwise close the literal
// and add a statement of its own (archive_command, run as postgres).
func TestPGValueBackslashesAreLiteral(t *testing.T) {
	ctx := context.Background()
	_, conn := pgConn(t)
	resetAll(t, conn, "application_name", "archive_command")
	if _, err := conn.Exec(ctx, "SET standard_conforming_strings = off"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Exec(context.Background(), "RESET standard_conforming_strings") })
	before := autoConfBytes(t, conn)
	others := func() (n int) {
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_file_settings WHERE name <> 'application_name' AND sourcefile LIKE '%postgresql.auto.conf'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	others0 := others()
	for _, val := range []string{
		`x\'; ALTER SYSTEM SET archive_command TO $$id$$; --`,
		`a\\b\n'c'`,
		`\`,
	} {
		j, _ := OpenJournal(t.TempDir())
		_, err := ApplyPGSettings(ctx, conn, j, map[string]string{"application_name": val})
		if others() != others0 {
			t.Fatalf("application_name = %q added a setting: postgresql.auto.conf\n%s", val, autoConfBytes(t, conn))
		}
		if err != nil {
			t.Fatalf("application_name = %q: %v", val, err)
		}
		var got string
		if err := conn.QueryRow(ctx, "SELECT setting FROM pg_file_settings WHERE name = 'application_name' AND sourcefile LIKE '%postgresql.auto.conf'").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != val {
			t.Errorf("application_name = %q: postgresql.auto.conf holds %q", val, got)
		}
		if _, err := RestorePGSettings(ctx, conn, j); err != nil {
			t.Fatalf("restore after application_name = %q: %v", val, err)
		}
		if string(autoConfBytes(t, conn)) != string(before) {
			t.Fatalf("application_name = %q: postgresql.auto.conf not restored", val)
		}
	}
}
