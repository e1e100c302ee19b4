package loadgen

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/chinook"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
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

// The 2020 thread's scenarios send, on the wire, the 2020 scripts' requests
// character for character (PostgREST/postgrest-benchmark e32569f6d3 …
// b7725d4cef): the fixed ids 3 and 127, and POSTBulk's
// JSON.stringify(Array(20).fill(obj)) with the first iteration's obj, which
// is the lab's frozen post_employee_bulk20.json.
func TestThread2020ScenariosSendTheScripts(t *testing.T) {
	obj := `{"employee_id":100,"first_name":"Virtual 0","last_name":"User 0","title":"Load Tester","reports_to":1,` +
		`"birth_date":"1920-01-01","hire_date":"2020-01-01","address":"666 10 Street SW","city":"Calgary","state":"AB",` +
		`"country":"Canada","postal_code":"T2P 5G","phone":"(403) 246-9887","fax":"+1 (403) 246-9899","email":"vu0@chinookcorp.com"}`
	fill := "[" + strings.TrimSuffix(strings.Repeat(obj+",", 20), ",") + "]"
	want := map[string]struct{ method, uri, body, status string }{
		"GETSingle2020":         {"GET", "/artist?select=*&artist_id=eq.3", "", "200"},
		"GETSingleEmbed2020":    {"GET", "/album?select=*,track(*,genre(*))&artist_id=eq.127", "", "200"},
		"POSTBulk2020":          {"POST", "/employee", fill, "201"},
		"RPCGETSingle2020":      {"GET", "/rpc/ret_artists?select=*&artist_id=eq.3", "", "200"},
		"RPCGETSingleEmbed2020": {"GET", "/rpc/ret_albums?select=album_id,title,artist_id,track(*,genre(*))&artist_id=eq.127", "", "200"},
	}
	if len(thread2020) != len(want) {
		t.Fatalf("%d 2020 scenarios, this test knows %d", len(thread2020), len(want))
	}
	if frozen, err := os.ReadFile(filepath.Join(labtest.ChinookDir(), "post_employee_bulk20.json")); err == nil && string(frozen) != fill {
		t.Errorf("post_employee_bulk20.json is not 20 times the first iteration's object")
	}
	for _, s := range thread2020 {
		w, ok := want[s.Name]
		if !ok {
			t.Fatalf("%s: not a scenario this test knows", s.Name)
		}
		var mu sync.Mutex
		seen := map[string]int{}
		srv := startServer(t, func(rw http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			seen[r.Method+" "+r.RequestURI+" "+r.Header.Get("Content-Type")+" "+string(b)]++
			mu.Unlock()
			code, _ := strconv.Atoi(w.status)
			rw.WriteHeader(code)
			rw.Write([]byte("[]"))
		})
		res := run(t, Config{Target: Target{URL: srv.URL}, Mix: []Weighted{{Scenario: s, Weight: 1}}, Closed: &Closed{Connections: 2},
			Duration: 200 * time.Millisecond, MaxRequests: 50})
		ct := ""
		if w.method == "POST" {
			ct = "application/json"
		}
		key := w.method + " " + w.uri + " " + ct + " " + w.body
		mu.Lock()
		if len(seen) != 1 || seen[key] == 0 || res.Summary.Errors != 0 {
			t.Errorf("%s: the server saw %d kinds of request (%d errors), want only %.200q", s.Name, len(seen), res.Summary.Errors, key)
		}
		mu.Unlock()
		if (w.method == "POST") != s.Inserts {
			t.Errorf("%s: Inserts %v", s.Name, s.Inserts)
		}
	}
}
