package lab

// GHCMetrics are the GHC runtime's statistics of a Haskell target
// (profile = true): known for trials that have them, so a run of
// postgrest-mini (a Go program) has no such rows.
var GHCMetrics = []Metric{
	{"ghc_alloc", "GHC bytes allocated", "KB/req", -1, ghcMetric(func(g *GHCStats) float64 { return g.AllocPerRequest / 1e3 })},
	{"ghc_gc_share", "GHC GC share of CPU", "%", -1, ghcMetric(func(g *GHCStats) float64 { return 100 * g.GCShare })},
	{"ghc_max_live", "GHC heap after a collection, max", "MB", -1, ghcMetric(func(g *GHCStats) float64 { return float64(g.MaxLiveBytes) / 1e6 })},
	{"ghc_major_gcs", "GHC major GCs (gen 1)", "count", -1, ghcMetric(func(g *GHCStats) float64 { return float64(g.MajorGCs) })},
}

// ghcMetric reads a figure of the trial's GHC statistics, known when the
// window saw at least one collection.
func ghcMetric(f func(*GHCStats) float64) func(Trial) (float64, bool) {
	return func(t Trial) (float64, bool) {
		if t.GHC == nil || t.GHC.GCs == 0 || t.Load.Requests == 0 {
			return 0, false
		}
		return f(t.GHC), true
	}
}
