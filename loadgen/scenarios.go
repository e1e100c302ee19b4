package loadgen

import (
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/chinook"
)

// The built-in scenarios. First the eight of the 2020 Supabase/PostgREST
// benchmark as its scripts of November 2020 on sent them (random ids,
// supabase/benchmarks-archive f9c8b260d1): the ids they ask for range over
// the Chinook data set's rows (internal/chinook, which the fixture
// generates). Then, named …2020, the requests the 2020 thread's tables
// measured where those differ (see thread2020 below). The POST ones insert
// rows, which the original benchmark deleted after each run (CleanupPOST).
var builtins = append([]Scenario{
	{Name: "GETSingle", Requests: []Request{{Method: "GET", Path: "/artist?select=*&artist_id=eq." + randID("artist"), Expect: 200}}},
	{Name: "GETSingleEmbed", Requests: []Request{{Method: "GET", Path: "/album?select=*,track(*,genre(*))&artist_id=eq." + randID("album"), Expect: 200}}},
	{Name: "GETAllEmbed", Requests: []Request{{Method: "GET", Path: "/album?select=*,track(*,genre(*))", Expect: 200}}},
	{Name: "POSTSingle", Requests: []Request{{Method: "POST", Path: "/employee", Header: jsonHeader(), Body: employeesBody(1), Expect: 201}}, Inserts: true},
	{Name: "POSTBulk", Requests: []Request{{Method: "POST", Path: "/employee", Header: jsonHeader(), Body: employeesBody(20), Expect: 201}}, Inserts: true},
	{Name: "RPCSimple", Requests: []Request{{Method: "GET", Path: "/rpc/add_them?a=1&b=2&c=3&d=4&e=5", Expect: 200}}},
	{Name: "RPCGETSingle", Requests: []Request{{Method: "GET", Path: "/rpc/ret_artists?select=*&artist_id=eq." + randID("artist"), Expect: 200}}},
	{Name: "RPCGETSingleEmbed", Requests: []Request{{Method: "GET", Path: "/rpc/ret_albums?select=album_id,title,artist_id,track(*,genre(*))&artist_id=eq." + randID("album"), Expect: 200}}},
}, thread2020...)

// thread2020 are the requests of the scripts every table of the 2020
// thread was measured with (September-October 2020:
// PostgREST/postgrest-benchmark e32569f6d3 "Add k6 results" to b7725d4cef;
// supabase/benchmarks-archive 86f1378b9a, a9f5844246, ce69334bf2), where
// they differ from the later scripts the eight above follow: fixed ids, 3
// for an artist and 127 for the embeds (random ids came on 2020-11-24,
// postgrest-benchmark b95e787e3c, benchmarks-archive f9c8b260d1, after the
// last table), and POSTBulk's 20 identical objects (Array(20).fill(obj)).
// Paths are the scripts' character for character. GETAllEmbed, RPCSimple
// and POSTSingle sent then what the lab's sends (POSTSingle's employee_id
// aside: see docs/scenarios.md).
var thread2020 = []Scenario{
	{Name: "GETSingle2020", Requests: []Request{{Method: "GET", Path: "/artist?select=*&artist_id=eq.3", Expect: 200}}},
	{Name: "GETSingleEmbed2020", Requests: []Request{{Method: "GET", Path: "/album?select=*,track(*,genre(*))&artist_id=eq.127", Expect: 200}}},
	{Name: "POSTBulk2020", Requests: []Request{{Method: "POST", Path: "/employee", Header: jsonHeader(), Body: bulk2020Body(), Expect: 201}}, Inserts: true},
	{Name: "RPCGETSingle2020", Requests: []Request{{Method: "GET", Path: "/rpc/ret_artists?select=*&artist_id=eq.3", Expect: 200}}},
	{Name: "RPCGETSingleEmbed2020", Requests: []Request{{Method: "GET", Path: "/rpc/ret_albums?select=album_id,title,artist_id,track(*,genre(*))&artist_id=eq.127", Expect: 200}}},
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

// BuiltinNames lists the built-in scenarios: the benchmark's eight in its
// order, then the 2020 thread's requests (thread2020).
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
	if n == 1 {
		return []byte(employee("{seq 100}", 0))
	}
	objs := make([]string, n)
	for i := range objs {
		objs[i] = employee("{seq 100}", i)
	}
	return []byte("[" + strings.Join(objs, ",") + "]")
}

// bulk2020Body is the 2020 scripts' POSTBulk body,
// JSON.stringify(Array(20).fill(obj)): 20 identical objects, obj being
// POSTSingle's with k6's __ITER (the virtual user's iteration) in
// employee_id (__ITER + 100), the names and the email. A template field
// takes a value of its own wherever it stands (20 {seq} fields would
// number 20 ids), so the lab cannot repeat one per-request number 20 times:
// it sends the script's first iteration (__ITER = 0, employee_id 100) in
// every request, the same 6,721 bytes as the frozen rendering
// post_employee_bulk20.json. The 2020 runs' bodies differed only in those
// numbers, growing with __ITER (a few bytes per object past 9 iterations).
// The employee table has no primary key in the benchmark's schema (the
// fixture's bench.sql drops it), so the repeated ids insert as they did.
func bulk2020Body() []byte {
	obj := employee("100", 0)
	return []byte("[" + strings.TrimSuffix(strings.Repeat(obj+",", 20), ",") + "]")
}

// employee is one employee object of the POST bodies, with the id (a
// number or a {seq} template) and the number in its names and email.
func employee(id string, i int) string {
	return fmt.Sprintf(`{"employee_id":%s,"first_name":"Virtual %d","last_name":"User %d","title":"Load Tester",`+
		`"reports_to":1,"birth_date":"1920-01-01","hire_date":"2020-01-01","address":"666 10 Street SW",`+
		`"city":"Calgary","state":"AB","country":"Canada","postal_code":"T2P 5G","phone":"(403) 246-9887",`+
		`"fax":"+1 (403) 246-9899","email":"vu%d@chinookcorp.com"}`, id, i, i, i)
}
