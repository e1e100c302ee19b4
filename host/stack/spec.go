package stack

import "github.com/pgrst-lab/pgrst-lab/systemd"

// TargetSpec is the unit the stack runs its target with, as installed by
// Up. The experiment runner reinstalls it with another binary or extra
// arguments for a variant, and puts this one back afterwards.
func (s *Stack) TargetSpec() systemd.UnitSpec { return targetSpec(s.facts) }
