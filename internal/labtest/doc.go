// Package labtest gives tests the real parts they need: a throwaway
// PostgreSQL cluster (with the generated Chinook data set of internal/fixture
// loaded on demand; RealChinook loads the real files instead), a
// check that a systemd user manager is reachable, and the real PostgREST
// binary ($LAB_POSTGREST).
//
// A part that is missing fails the test when CI=true and skips it, saying
// why, on a developer's machine. Packages that call Postgres or Chinook must
// stop the cluster at the end of the test binary:
//
//	func TestMain(m *testing.M) { labtest.Main(m) }
package labtest
