package loadgen

import (
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/chinook"
)

// The eight scenarios of the 2020 Supabase/PostgREST benchmark. The ids
// they ask for range over the Chinook data set's rows (internal/chinook,
// which the fixture generates); the POST ones insert rows, which the
// original benchmark deleted after each run (CleanupPOST).
var builtins = []Scenario{
	{Name: "GETSingle", Requests: []Request{{Method: "GET", Path: "/artist?select=*&artist_id=eq." + randID("artist"), Expect: 200}}},
	{Name: "GETSingleEmbed", Requests: []Request{{Method: "GET", Path: "/album?select=*,track(*,genre(*))&artist_id=eq." + randID("album"), Expect: 200}}},
	{Name: "GETAllEmbed", Requests: []Request{{Method: "GET", Path: "/album?select=*,track(*,genre(*))", Expect: 200}}},
	{Name: "POSTSingle", Requests: []Request{{Method: "POST", Path: "/employee", Header: jsonHeader(), Body: employeesBody(1), Expect: 201}}, Inserts: true},
	{Name: "POSTBulk", Requests: []Request{{Method: "POST", Path: "/employee", Header: jsonHeader(), Body: employeesBody(20), Expect: 201}}, Inserts: true},
	{Name: "RPCSimple", Requests: []Request{{Method: "GET", Path: "/rpc/add_them?a=1&b=2&c=3&d=4&e=5", Expect: 200}}},
	{Name: "RPCGETSingle", Requests: []Request{{Method: "GET", Path: "/rpc/ret_artists?select=*&artist_id=eq." + randID("artist"), Expect: 200}}},
	{Name: "RPCGETSingleEmbed", Requests: []Request{{Method: "GET", Path: "/rpc/ret_albums?select=album_id,title,artist_id,track(*,genre(*))&artist_id=eq." + randID("album"), Expect: 200}}},
}

// randID is a template drawing an id of table uniformly from the Chinook
// data set's (1 to its row count). The embed scenarios draw artist_id up
// to the album count, as the original benchmark did.
func randID(table string) string {
	return fmt.Sprintf("{rand 1 %d}", chinook.RowCounts[table])
}

// CleanupPOST is the request the original benchmark sent after the POST
// scenarios to delete the rows they inserted.
var CleanupPOST = Request{Method: "DELETE", Path: "/employee?title=eq.Load%20Tester"}

// Builtin returns a copy of the built-in scenario with that name
// (case-insensitive).
func Builtin(name string) (Scenario, error) {
	for _, s := range builtins {
		if strings.EqualFold(s.Name, name) {
			c := s
			c.Requests = append([]Request(nil), s.Requests...)
			return c, nil
		}
	}
	return Scenario{}, fmt.Errorf("unknown scenario %q (built in: %s)", name, strings.Join(BuiltinNames(), ", "))
}

// BuiltinNames lists the built-in scenarios in the benchmark's order.
func BuiltinNames() []string {
	out := make([]string, len(builtins))
	for i, s := range builtins {
		out[i] = s.Name
	}
	return out
}

func jsonHeader() map[string]string { return map[string]string{"Content-Type": "application/json"} }

// employeesBody builds the POST body like the original k6 script: employee
// objects titled "Load Tester" (so they can be deleted afterwards), each
// with a fresh employee_id from a run-wide sequence (starting at 100, above
// Chinook's 8 employees). n == 1 gives an object, n > 1 an array.
func employeesBody(n int) []byte {
	var b strings.Builder
	if n > 1 {
		b.WriteByte('[')
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"employee_id":{seq 100},"first_name":"Virtual %d","last_name":"User %d","title":"Load Tester",`+
			`"reports_to":1,"birth_date":"1920-01-01","hire_date":"2020-01-01","address":"666 10 Street SW",`+
			`"city":"Calgary","state":"AB","country":"Canada","postal_code":"T2P 5G","phone":"(403) 246-9887",`+
			`"fax":"+1 (403) 246-9899","email":"vu%d@chinookcorp.com"}`, i, i, i)
	}
	if n > 1 {
		b.WriteByte(']')
	}
	return []byte(b.String())
}
