// Package chinook holds the sizes of the Chinook data set: the fixture
// generator (internal/fixture) reproduces them, and the built-in load
// scenarios (loadgen) draw the ids they ask for from them.
package chinook

// RowCounts are the rows of each Chinook table.
var RowCounts = map[string]int{
	"artist": 275, "album": 347, "track": 3503, "genre": 25, "media_type": 5, "employee": 8,
	"customer": 59, "invoice": 412, "invoice_line": 2240, "playlist": 18, "playlist_track": 8715,
}
