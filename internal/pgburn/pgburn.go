// Package pgburn is the SQL of `lab calibrate --inject database`: a
// schema in the stack's own database with a spinning function burn(n) and
// two pre-request functions, A's (spins 0 times) and A-prime's (spins as
// often as the injected cost needs). lab/calibrate names the functions in
// the variants it derives (A, B); host/reconcile's Burner runs the SQL.
// Both reach this leaf, so neither imports the other.
package pgburn

import (
	"math"
	"strconv"
)

// The schema and functions (dropped when the calibration ends).
const (
	Schema = "lab_calibrate"
	A      = Schema + ".burn_a" // A's pre-request: spins 0 times
	B      = Schema + ".burn_b" // A-prime's pre-request: spins Iterations times
)

// SetupSQL creates the schema, the spinning function burn(n), run by the
// request's role (USAGE and EXECUTE for everyone), and A's function; BSQL
// makes A-prime's before each run.
var SetupSQL = `CREATE SCHEMA IF NOT EXISTS ` + Schema + `;
GRANT USAGE ON SCHEMA ` + Schema + ` TO PUBLIC;
CREATE OR REPLACE FUNCTION ` + Schema + `.burn(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE x bigint := 0;
BEGIN
  FOR i IN 1..n LOOP x := x + i; END LOOP;
END $$;
` + funcSQL(A, 0)

// TeardownSQL drops what SetupSQL made.
const TeardownSQL = `DROP SCHEMA IF EXISTS ` + Schema + ` CASCADE`

// BSQL makes A-prime's function spin n times per request.
func BSQL(n int) string { return funcSQL(B, n) }

// funcSQL makes the pre-request function name, which spins n times.
func funcSQL(name string, n int) string {
	return `CREATE OR REPLACE FUNCTION ` + name + `() RETURNS void LANGUAGE sql AS 'SELECT ` + Schema + `.burn(` + strconv.Itoa(max(n, 0)) + `)'`
}

// Iterations is how many loop iterations cost us microseconds, given one
// iteration's cost (µs, measured on the database).
func Iterations(us int, usPerIteration float64) int {
	if us <= 0 || !(usPerIteration > 0) {
		return 0
	}
	return max(1, int(math.Round(float64(us)/usPerIteration)))
}
