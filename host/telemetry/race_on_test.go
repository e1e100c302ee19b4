//go:build race

package telemetry

// raceSlowdown scales CPU budgets checked by tests: the race detector makes
// this process's code several times slower.
const raceSlowdown = 3
