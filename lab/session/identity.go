package session

import (
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// identify records what a run measured, so that runs can be put in one
// series: the experiment's content hash, and per variant the build of the
// binary it ran (its own --version, else the target's). A build the lab
// made from a repository (Repo, Ref set) is kept as it is, with the
// version filled in.
func identify(run *lab.Run) {
	run.ExperimentHash = record.ExperimentHash(run.Experiment)
	for i := range run.Variants {
		v := &run.Variants[i]
		version := v.Version
		if v.Binary == "" {
			version = run.Target.Version // the variant ran the target's binary
		}
		parsed := lab.ParseBuild(version)
		if v.Build.Version == "" {
			v.Build.Version = parsed.Version
		}
		if v.Build.Commit == "" {
			v.Build.Commit = parsed.Commit
		}
	}
}
