package report

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// binariesDesc lists the executables the variants ran with their
// versions, "base: PostgREST 13.0.8 (/path); pr: ..."; "" when no variant
// set a binary. code formats names and paths, text the version (for
// Markdown, format.MdCode and format.MdEscape; plain, the identity).
func binariesDesc(run *lab.Run, code, text func(string) string) string {
	var parts []string
	for _, vi := range run.Variants {
		if vi.Binary == "" {
			continue
		}
		v := vi.Version
		if v == "" {
			v = "version unknown"
		}
		parts = append(parts, code(vi.Name)+": "+text(v)+" ("+code(vi.Binary)+")")
	}
	return strings.Join(parts, "; ")
}

// buildsDesc is "`base`: commit `abc1234` (ref main); `pr`: ..." for the
// variants whose build names a commit (lab ab --repo, lab track), "" when
// none does.
func buildsDesc(run *lab.Run) string {
	var parts []string
	for _, vi := range run.Variants {
		b := vi.Build
		if b.Commit == "" {
			continue
		}
		s := format.MdCode(vi.Name) + ": commit " + format.MdCode(b.Commit)
		if b.Ref != "" && !strings.EqualFold(b.Ref, b.Commit) {
			s += " (ref " + format.MdCode(b.Ref) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func plain(s string) string { return s }
