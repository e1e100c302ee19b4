package history

import "github.com/pgrst-lab/pgrst-lab/lab"

// buildInfo is what a variant's record says about the build it ran
// (lab.Build: version, commit, repository, ref).
type buildInfo struct{ Version, Commit, Repo, Ref string }

// buildOf is the build a variant ran. Until the record carries
// lab.VariantInfo.Build it knows only the variant's --version.
//
// At the merge of lab.Build: return buildInfo(v.Build), with the
// --version fallback kept.
func buildOf(v lab.VariantInfo) buildInfo {
	return buildInfo{Version: v.Version}
}

// experimentHash identifies the experiment file a run ran (lab.Run's
// ExperimentHash); "" when the record does not say.
//
// At the merge of lab.Run.ExperimentHash: return run.ExperimentHash.
func experimentHash(run *lab.Run) string {
	_ = run
	return ""
}
