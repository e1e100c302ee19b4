//go:build race

package loadgen

// raceEnabled: the race detector makes sync.Pool drop items on purpose,
// so code that reuses pooled objects allocates under -race.
const raceEnabled = true
