// Package layers writes down the lab's layering as data and checks an
// import graph against it: which room each package belongs to and which
// rooms a room may import. Its test runs `go list -deps` over the module
// and fails on any import that runs up a layer, or on a package no room
// claims, so a new package has to be placed in the house before it builds
// green. docs/architecture.md draws the same rooms.
package layers
