package lab

import "testing"

func TestTrialSeed(t *testing.T) {
	e := &Experiment{Trials: Trials{Seed: 7}}
	seen := map[int64]string{}
	for _, sc := range []string{"GETSingle", "GETSingleEmbed", "POSTBulk"} {
		for rep := 0; rep < 3; rep++ {
			s := trialSeed(e, sc, rep)
			if s != trialSeed(e, sc, rep) {
				t.Fatal("not deterministic")
			}
			if prev, dup := seen[s]; dup {
				t.Fatalf("%s rep %d has the seed of %s", sc, rep, prev)
			}
			seen[s] = sc
		}
	}
	if trialSeed(e, "GETSingle", 0) == trialSeed(&Experiment{Trials: Trials{Seed: 8}}, "GETSingle", 0) {
		t.Error("the experiment's seed does not change the trial seed")
	}
}
