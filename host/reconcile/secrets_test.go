package reconcile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Issue 41, item 6d: errors of the server side that carry a secret in a
// form the patterns for connection strings miss are cleaned of it, on a
// real stack (direct supervisor, PostgreSQL, postgrest-mini):
//   - a restore that meets a config someone else changed quotes the first
//     line that differs, here the original's jwt-secret line: the secret
//     is known, and hidden by its text;
//   - a variant's key=value db-uri with an escaped quote in its password,
//     which the role check cannot parse: pgx quotes the string with a
//     redaction that stops at the escaped quote, leaving the password's
//     tail.
//
// The old code showed both.
func TestErrorsHideSecrets(t *testing.T) {
	l, st := localOn(t, stack.Options{Supervisor: systemd.ModeDirect})
	const jwt = "original-jwt-secret-0123456789abcdef" // the target's own
	l.Close()
	f, err := configs.ParseFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("jwt-secret", configs.String(jwt)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(st.Config, f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l, err = New(ctx, l.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)

	kv := fmt.Sprintf(`host=%s port=%d dbname=%s user=authenticator password='se\'cret tail-71c4' connect_timeout=bogus`, st.PGSocketDir, st.PGPort, stack.Database)
	_, err = l.Apply(ctx, lab.Variant{Name: "kv", PostgREST: map[string]string{"db-uri": kv}})
	t.Logf("apply: %v", err)
	if err == nil || strings.Contains(err.Error(), "tail-71c4") || !strings.Contains(err.Error(), "connect_timeout") {
		t.Errorf("a key=value db-uri with an escaped quote: want a refusal saying what is wrong (connect_timeout) without the password, got: %v", err)
	}

	if _, err := l.Apply(ctx, lab.Variant{Name: "pool", PostgREST: map[string]string{"db-pool": "3"}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `jwt-secret = "`+jwt+`"`, `jwt-secret = "`+jwt+`" # rotated soon`, 1)
	if edited == string(b) {
		t.Fatalf("no jwt-secret line in the config the lab wrote:\n%s", b)
	}
	if err := os.WriteFile(st.Config, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	err = l.Restore(ctx)
	t.Logf("restore: %v", err)
	if ce, ok := errors.AsType[*configs.ConflictError](err); !ok {
		t.Fatalf("restore over someone else's change: want a conflict, got %v", err)
	} else if strings.Contains(ce.Error(), "jwt-secret") && !strings.Contains(ce.Error(), jwt) {
		t.Fatalf("the conflict no longer quotes the line: the case tests nothing (%v)", ce)
	}
	if strings.Contains(err.Error(), jwt) || !strings.Contains(err.Error(), "changed by someone else") {
		t.Errorf("the restore's error shows the jwt-secret (or says nothing of the conflict): %v", err)
	}
	// Leave the config as the lab wrote it, so the stack goes down clean.
	if err := os.WriteFile(st.Config, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.Restore(ctx); err != nil {
		t.Fatalf("restore: %v", err)
	}
}
