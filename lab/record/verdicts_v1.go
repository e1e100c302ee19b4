package record

// The v1 verdicts record: verdicts.json as `lab run` and `lab report` have
// written it. Like RunV1, the types spell out their JSON names, so that
// renaming a field of package stats does not change the file;
// testdata/golden/verdicts.json holds one record with every field set and
// TestVerdictsGolden fails on a renamed field. New fields may be added;
// renaming or removing one is a schema 2. verdicts.json has no schema
// field of its own: it is always written next to the run.json it was
// computed from, whose schema number covers both.
//
// Numbers that may be infinite or undefined (unbounded intervals, unknown
// changes) are pointers: null in the file.

// VerdictsV1 is verdicts.json: every variant compared with the baseline.
type VerdictsV1 struct {
	Alpha      float64          `json:"alpha"`
	Confidence float64          `json:"confidence"`
	Baseline   string           `json:"baseline"`
	Scenarios  []string         `json:"scenarios"`
	Variants   []string         `json:"variants"`
	Rows       []VerdictRowV1   `json:"rows"`
	Method     string           `json:"method"`
	Sequential bool             `json:"sequential"`
	MinRounds  int              `json:"min_rounds"`
	MaxRounds  int              `json:"max_rounds"`
	Rounds     int              `json:"rounds"`
	Sweep      *SweepVerdictsV1 `json:"sweep,omitempty"`
	// Binaries are the executables the variants ran, with their --version
	// (only when a variant set one).
	Binaries []BinaryV1 `json:"binaries,omitempty"`
}

// VerdictRowV1 is one variant against the baseline on one metric in one
// scenario.
type VerdictRowV1 struct {
	Scenario     string    `json:"scenario"`
	Metric       string    `json:"metric"`
	Label        string    `json:"label"`
	Unit         string    `json:"unit"`
	Better       int       `json:"better"`
	BaselineName string    `json:"baseline_name"`
	VariantName  string    `json:"variant_name"`
	Baseline     SummaryV1 `json:"baseline"`
	Variant      SummaryV1 `json:"variant"`
	DeltaPct     *float64  `json:"delta_pct"`
	Delta        string    `json:"delta"`
	P            float64   `json:"p"`
	Test         string    `json:"test"`
	PUnpaired    float64   `json:"p_unpaired"`
	Paired       *PairedV1 `json:"paired,omitempty"`
	Alpha        float64   `json:"alpha"`
	Threshold    float64   `json:"threshold"`
	MDEPct       *float64  `json:"mde_pct"`
	Significant  bool      `json:"significant"`
	Outcome      string    `json:"outcome"`
	Warnings     []string  `json:"warnings,omitempty"`
}

// SummaryV1 is a median with its confidence interval over the trials'
// values (sorted; [] when none).
type SummaryV1 struct {
	Median *float64  `json:"median"`
	Lo     *float64  `json:"lo"`
	Hi     *float64  `json:"hi"`
	N      int       `json:"n"`
	Values []float64 `json:"values"`
}

// PairedV1 is the paired comparison of a row (rounds where both were
// measured).
type PairedV1 struct {
	N         int      `json:"n"`
	ChangePct *float64 `json:"change_pct"`
	LoPct     *float64 `json:"lo_pct"`
	HiPct     *float64 `json:"hi_pct"`
	P         float64  `json:"p"`
	SD        float64  `json:"sd_log_ratio"`
	Speed     *SpeedV1 `json:"speed_adjustment,omitempty"`
}

// SpeedV1 is the adjustment of a paired comparison for the machine's speed.
type SpeedV1 struct {
	Beta         float64  `json:"beta"`
	Corr         float64  `json:"corr"`
	RawP         float64  `json:"raw_p"`
	RawSD        float64  `json:"raw_sd_log_ratio"`
	RawChangePct *float64 `json:"raw_change_pct"`
}

// SweepVerdictsV1 is a sweep's analysis: per scenario, every value's
// medians and a recommendation.
type SweepVerdictsV1 struct {
	Keys      []string          `json:"keys"`
	Geometric bool              `json:"geometric"`
	Baseline  string            `json:"baseline"`
	Cheapest  string            `json:"cheapest"`
	Scenarios []SweepScenarioV1 `json:"scenarios"`
}

// SweepScenarioV1 is one scenario of a sweep.
type SweepScenarioV1 struct {
	Scenario       string           `json:"scenario"`
	Points         []SweepPointV1   `json:"points"`
	Recommendation RecommendationV1 `json:"recommendation"`
}

// SweepPointV1 is one value (one variant) of a sweep in one scenario: its
// medians by metric name.
type SweepPointV1 struct {
	Variant string               `json:"variant"`
	Values  []string             `json:"values"`
	Metrics map[string]SummaryV1 `json:"metrics"`
}

// RecommendationV1 is a sweep's answer to "which value should I use".
type RecommendationV1 struct {
	Metric     string        `json:"metric"`
	Best       string        `json:"best"`
	Cheapest   string        `json:"cheapest,omitempty"`
	VsBest     *VerdictRowV1 `json:"vs_best,omitempty"`
	Below      *VerdictRowV1 `json:"below,omitempty"`
	CannotTell bool          `json:"cannot_tell,omitempty"`
	Sentence   string        `json:"sentence"`
}

// BinaryV1 is the executable a variant ran.
type BinaryV1 struct {
	Variant string `json:"variant"`
	Binary  string `json:"binary"`
	Version string `json:"version"`
}
