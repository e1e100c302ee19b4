package report

import (
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// mdUnitOf is unitOf for Markdown: ", unit `name`" or "".
func mdUnitOf(t lab.TargetInfo) string {
	if t.Unit == "" {
		return ""
	}
	return ", unit " + format.MdCode(t.Unit)
}
