//go:build !race

package telemetry

// raceSlowdown scales CPU budgets checked by tests (1 without -race).
const raceSlowdown = 1
