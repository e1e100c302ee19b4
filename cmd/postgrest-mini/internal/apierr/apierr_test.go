package apierr

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestStatus(t *testing.T) {
	cases := map[string]int{"42703": 400, "42P01": 404, "23505": 409, "25006": 405, "08006": 503, "53300": 503,
		"53400": 500, "P0001": 400, "XX000": 500, "22P02": 400, "40001": 500}
	for code, want := range cases {
		if got := Status(code, false, true); got != want {
			t.Errorf("Status(%s) = %d, want %d", code, got, want)
		}
	}
	if Status("42883", true, true) != 404 || Status("42883", false, true) != 400 {
		t.Error("42883: want 404 for RPC, 400 otherwise")
	}
	if Status("42501", false, true) != 401 || Status("42501", false, false) != 403 {
		t.Error("42501: want 401 anonymous, 403 authenticated")
	}
}

func TestFromPG(t *testing.T) {
	e := FromPG(fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: "42703", Message: "column artist.x does not exist"}), false, true)
	if e == nil || e.Status != 400 {
		t.Fatalf("FromPG: %+v", e)
	}
	var m map[string]any
	if err := json.Unmarshal(e.JSON(), &m); err != nil || m["code"] != "42703" || m["details"] != nil || m["hint"] != nil || len(m) != 4 {
		t.Errorf("JSON: %s", e.JSON())
	}
	if FromPG(fmt.Errorf("not a pg error"), false, true) != nil {
		t.Error("non-PostgreSQL error mapped")
	}
}
