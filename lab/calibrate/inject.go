package calibrate

import (
	"fmt"
	"math"
	"strconv"
)

// Injection says where A' gets its extra CPU work per request.
type Injection string

const (
	// InjectServer spins in the reference server's request handler
	// (PGRST_LAB_INJECT_CPU_US): CPU in the PostgREST process, on
	// postgrest-mini only.
	InjectServer Injection = "server"
	// InjectDatabase calls a db-pre-request function that spins in
	// PostgreSQL: CPU in the database backend, on any PostgREST. Both A
	// and A' call one (A's spins zero times), so the only difference is
	// the loop.
	InjectDatabase Injection = "database"
)

// ParseInjection reads --inject: "server", "database", or "" (the
// default for the target: server on the reference server, else database).
func ParseInjection(s string, reference bool) (Injection, error) {
	switch Injection(s) {
	case "":
		if reference {
			return InjectServer, nil
		}
		return InjectDatabase, nil
	case InjectServer:
		if !reference {
			return "", fmt.Errorf("--inject server needs postgrest-mini (PGRST_LAB_INJECT_CPU_US); use --inject database on real PostgREST")
		}
		return InjectServer, nil
	case InjectDatabase:
		return InjectDatabase, nil
	}
	return "", fmt.Errorf("--inject %q: allowed values are server (postgrest-mini only) and database (any PostgREST)", s)
}

// The database injection's schema and functions (in the stack's own
// database; dropped when the calibration ends).
const (
	BurnSchema = "lab_calibrate"
	BurnA      = BurnSchema + ".burn_a" // A's pre-request: spins 0 times
	BurnB      = BurnSchema + ".burn_b" // A-prime's pre-request: spins Iterations times
)

// BurnSetupSQL creates the schema, the spinning function burn(n), run by
// the request's role (USAGE and EXECUTE for everyone), and A's function;
// BurnBSQL makes A-prime's before each run.
var BurnSetupSQL = `CREATE SCHEMA IF NOT EXISTS ` + BurnSchema + `;
GRANT USAGE ON SCHEMA ` + BurnSchema + ` TO PUBLIC;
CREATE OR REPLACE FUNCTION ` + BurnSchema + `.burn(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE x bigint := 0;
BEGIN
  FOR i IN 1..n LOOP x := x + i; END LOOP;
END $$;
` + burnFuncSQL(BurnA, 0)

// BurnTeardownSQL drops what BurnSetupSQL made.
const BurnTeardownSQL = `DROP SCHEMA IF EXISTS ` + BurnSchema + ` CASCADE`

// BurnBSQL makes A-prime's function spin n times per request.
func BurnBSQL(n int) string { return burnFuncSQL(BurnB, n) }

// burnFuncSQL makes the pre-request function name, which spins n times.
func burnFuncSQL(name string, n int) string {
	return `CREATE OR REPLACE FUNCTION ` + name + `() RETURNS void LANGUAGE sql AS 'SELECT ` + BurnSchema + `.burn(` + strconv.Itoa(max(n, 0)) + `)'`
}

// BurnIterations is how many loop iterations cost us microseconds, given
// one iteration's cost (µs, measured on the database).
func BurnIterations(us int, usPerIteration float64) int {
	if us <= 0 || !(usPerIteration > 0) {
		return 0
	}
	return max(1, int(math.Round(float64(us)/usPerIteration)))
}
