package history

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Threshold is `lab history --gate[=PCT%]` as a flag.Value: a boolean
// flag with an optional threshold in percent (DefaultRegressionPct when
// none is given).
type Threshold struct {
	On  bool
	Pct float64
}

// IsBoolFlag lets --gate stand alone.
func (g *Threshold) IsBoolFlag() bool { return true }

func (g *Threshold) String() string {
	if g == nil || !g.On {
		return ""
	}
	return fmt.Sprintf("%g%%", g.Pct)
}

// Set reads "true", "false" or a percentage ("3%", "3").
func (g *Threshold) Set(s string) error {
	switch strings.ToLower(s) {
	case "true":
		g.On, g.Pct = true, DefaultRegressionPct
		return nil
	case "false":
		g.On = false
		return nil
	}
	pct, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
	if err != nil || pct <= 0 || pct > 1000 {
		return fmt.Errorf("want a threshold in percent, e.g. --gate=3%%")
	}
	g.On, g.Pct = true, pct
	return nil
}

// PctArg matches a lone "3%" argument: a threshold given as --gate 3%
// instead of --gate=3%.
var PctArg = regexp.MustCompile(`^[+-]?[0-9.]+%$`)
