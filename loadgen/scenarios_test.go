package loadgen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/chinook"
)

// The built-in scenarios ask for ids within the data set the fixture
// generates, and say they insert rows exactly when they POST.
func TestBuiltinsFollowTheDataSet(t *testing.T) {
	ranges := map[string]string{"GETSingle": "artist", "RPCGETSingle": "artist", "GETSingleEmbed": "album", "RPCGETSingleEmbed": "album"}
	for _, name := range BuiltinNames() {
		s, _ := Builtin(name)
		var posts bool
		for _, r := range s.Requests {
			posts = posts || r.Method == "POST"
			table, ok := ranges[name]
			if want := fmt.Sprintf("{rand 1 %d}", chinook.RowCounts[table]); ok && !strings.HasSuffix(r.Path, "eq."+want) {
				t.Errorf("%s: path %s, want ids %s (the %s table's rows)", name, r.Path, want, table)
			}
			if !ok && strings.Contains(r.Path, "{rand") {
				t.Errorf("%s: path %s draws ids this test does not know the table of", name, r.Path)
			}
		}
		if s.Inserts != posts {
			t.Errorf("%s: Inserts %v, but it POSTs: %v", name, s.Inserts, posts)
		}
	}
}
