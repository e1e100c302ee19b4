// Package track is the domain of `lab track`: which commits of a branch
// to measure (every one not measured yet, every Nth, the tags, from a
// commit on, at most K), oldest first, and how long the rest will take,
// counted from the builds and runs measured so far. It imports nothing
// but the standard library: the commits come from package gitbuild, the
// measured ones from the store, through cmd/lab.
package track
