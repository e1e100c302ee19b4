// Package trial runs one trial's load: Loader implements lab.Loader (and
// lab.Cleaner) with package loadgen, turning a lab.LoadSpec (scenario,
// model, rate, partition) into a loadgen.Config and the generator's
// summary back into lab.LoadStats, with the generator's own CPU time.
// After a scenario that inserts rows it deletes them again, outside the
// measured window.
package trial
