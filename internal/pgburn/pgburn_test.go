package pgburn

import (
	"strings"
	"testing"
)

func TestIterationsAndBSQL(t *testing.T) {
	if n := Iterations(40, 0.02); n != 2000 {
		t.Errorf("40 µs at 0.02 µs an iteration: %d, want 2000", n)
	}
	if n := Iterations(1, 5); n != 1 {
		t.Errorf("1 µs at 5 µs an iteration: %d, want 1 (at least one)", n)
	}
	if n := Iterations(0, 0.02); n != 0 {
		t.Errorf("no cost: %d iterations", n)
	}
	if !strings.Contains(BSQL(2000), "burn(2000)") || !strings.Contains(BSQL(2000), B+"()") {
		t.Errorf("BSQL: %s", BSQL(2000))
	}
	if !strings.Contains(SetupSQL, A+"()") || !strings.Contains(TeardownSQL, Schema) {
		t.Errorf("setup or teardown misses the schema's functions:\n%s\n%s", SetupSQL, TeardownSQL)
	}
}
