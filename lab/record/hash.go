package record

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// ExperimentHash identifies an experiment's content: the SHA-256 of its
// record (ExperimentV1 as JSON) without the path it was read from. Two
// runs share it when they ran the same variants, scenarios, load and
// trials, wherever the file was; editing anything that changes what runs
// (not a comment) changes it. A variant's binary is not part of it: the
// binary is what a run measures (each run records its build), not the
// experiment, so that runs of one file on several builds (lab track, a
// $(LAB_BUILD) per release) form one series; an experiment without
// binaries hashes as it always did.
func ExperimentHash(e lab.Experiment) string {
	r := FromExperiment(e)
	r.Source = ""
	for i := range r.Variants {
		r.Variants[i].Binary = ""
	}
	b, err := json.Marshal(r)
	if err != nil {
		return "" // an experiment record always marshals
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
