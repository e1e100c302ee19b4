package postgrest

// Benchmark2020 is the 2020 PostgREST benchmark's table (Supabase and
// PostgREST's maintainers, "PostgREST benchmark" thread): http_reqs rate
// per scenario, req/s, of PostgREST's master after the thread's
// improvements, k6 constant-arrival-rate on a t3a.nano (2 vCPU, 0.5 GB)
// against the real Chinook. A limits table puts its own ratios to
// GETSingle beside these (Benchmark2020Ratio).
var Benchmark2020 = map[string]float64{
	"GETSingle":         2067.95,
	"GETSingleEmbed":    804.99,
	"GETAllEmbed":       28.43,
	"POSTSingle":        1546.56,
	"POSTBulk":          607.92,
	"RPCSimple":         2011.32,
	"RPCGETSingle":      2165.97,
	"RPCGETSingleEmbed": 724.28,
	// The same runs under the names of the lab's scenarios that send the
	// thread's requests exactly (fixed ids 3 and 127, 20 identical
	// objects): they are the requests these figures were measured with.
	"GETSingle2020":         2067.95,
	"GETSingleEmbed2020":    804.99,
	"POSTBulk2020":          607.92,
	"RPCGETSingle2020":      2165.97,
	"RPCGETSingleEmbed2020": 724.28,
}

// Benchmark2020Machine says where Benchmark2020 was measured.
const Benchmark2020Machine = "2020 benchmark, t3a.nano (2 vCPU, 0.5 GB), k6 constant-arrival-rate, real Chinook"

// Benchmark2020Ratio is scenario's rate in Benchmark2020 over GETSingle's;
// ok is false for a scenario the 2020 benchmark did not run.
func Benchmark2020Ratio(scenario string) (ratio float64, ok bool) {
	r, ok := Benchmark2020[scenario]
	if !ok {
		return 0, false
	}
	return r / Benchmark2020["GETSingle"], true
}
