package report

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// binariesDesc lists the executables the variants ran with their
// versions, "base: PostgREST 13.0.8 (/path); pr: ...", names and paths
// quoted with q; "" when no variant set a binary.
func binariesDesc(run *lab.Run, q string) string {
	var parts []string
	for _, vi := range run.Variants {
		if vi.Binary == "" {
			continue
		}
		v := vi.Version
		if v == "" {
			v = "version unknown"
		}
		parts = append(parts, q+vi.Name+q+": "+v+" ("+q+vi.Binary+q+")")
	}
	return strings.Join(parts, "; ")
}
