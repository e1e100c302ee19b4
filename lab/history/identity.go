package history

import "github.com/pgrst-lab/pgrst-lab/lab"

// buildOf is the build a variant ran, its --version as the version when
// the build says none.
func buildOf(v lab.VariantInfo) lab.Build {
	b := v.Build
	if b.Version == "" {
		b.Version = v.Version
	}
	return b
}

// experimentHash identifies the experiment file a run ran; "" when the
// record does not say (records before the hash).
func experimentHash(run *lab.Run) string { return run.ExperimentHash }
