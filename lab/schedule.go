package lab

import (
	"hash/fnv"
	"math/rand"
)

// roundOrder returns the order in which the variants run in round r (from 0).
// "interleaved" keeps the file's order every round (ABAB...), so slow drift
// of the machine hits every variant alike; "random" shuffles each round with
// the experiment's seed (randomised blocks), so a periodic disturbance cannot
// line up with one variant.
func roundOrder(e *Experiment, r int) []Variant {
	if e.Trials.Order == OrderDuet {
		return nil // duetRound measures both at once
	}
	vs := append([]Variant(nil), e.Variants...)
	if e.Trials.Order == OrderRandom {
		rng := rand.New(rand.NewSource(e.Trials.Seed + int64(r)*7919))
		rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	}
	return vs
}

// trialSeed makes each trial's request sequence reproducible and different
// per repetition, but equal across variants, so variants see the same requests.
func trialSeed(e *Experiment, scenario string, rep int) int64 {
	h := fnv.New64a()
	h.Write([]byte(scenario))
	return e.Trials.Seed*1_000_003 + int64(h.Sum64()) + int64(rep)
}
