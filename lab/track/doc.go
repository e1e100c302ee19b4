// Package track is the domain of `lab track`: which commits of a branch
// to measure (every one not measured yet, every Nth, the tags, from a
// commit on, at most K), oldest first, and how long the rest will take,
// counted from the builds and runs measured so far; and the measuring loop
// itself (Tracker): build each commit, run the experiment with that build,
// store the run, print the change points of the series so far (package
// history). It imports no adapter: the commits come from package gitbuild,
// the builds (Builder), the runs (Measurer: lab/session and the store) and
// the stored series (Series) come in as ports that cmd/lab wires.
package track
