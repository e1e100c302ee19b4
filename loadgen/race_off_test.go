//go:build !race

package loadgen

// raceEnabled is false without -race (see race_on_test.go).
const raceEnabled = false
