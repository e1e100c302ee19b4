package profile

import (
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/profiles"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Markdown writes the profile sections (profile = true): where the CPU
// went per variant, what moved against the baseline, GHC runtime
// statistics, and the SQL per variant.
func Markdown(b io.Writer, run *lab.Run) {
	r := Of(run)
	if r.Empty() {
		return
	}
	if len(r.Variants) > 0 {
		fmt.Fprintf(b, "## CPU profile\n\n`perf record -e cpu-clock -g` of the target and PostgreSQL over every trial's measured window; "+
			"self: the function was running; total: it was on the stack. Flame graphs: report.html and flame-*.svg; pprof: profile-*.pb.gz.\n\n")
		for _, v := range r.Variants {
			fmt.Fprintf(b, "### %s: top functions (%d samples, %d trials)\n\nperf itself used %s s of CPU per trial, %s of the target's and PostgreSQL's CPU.\n\n"+
				"| function | service | self | total |\n|---|---|---:|---:|\n", format.MdEscape(v.Variant), v.Samples, v.Trials, format.Num(v.PerfCPUPerTrial, 3), pct(v.PerfShare))
			for _, f := range v.BySelf[:min(10, len(v.BySelf))] {
				fmt.Fprintf(b, "| %s | %s | %s | %s |\n", format.MdCode(f.Name), format.MdEscape(f.Service), pct(f.SelfShare), pct(f.TotalShare))
			}
			fmt.Fprintln(b)
			for _, u := range v.Unnamed {
				fmt.Fprintf(b, "Not in the table: %s (%s), %s self, %s total: %s\n\n", format.MdCode(u.Frame), format.MdEscape(u.Service), pct(u.SelfShare), pct(u.TotalShare), format.MdEscape(u.Note))
			}
			if len(v.Modules) > 0 {
				fmt.Fprintf(b, "Haskell modules by self share:")
				for _, m := range v.Modules[:min(8, len(v.Modules))] {
					fmt.Fprintf(b, " %s %s;", format.MdCode(m.Module), pct(m.SelfShare))
				}
				fmt.Fprintf(b, "\n\n")
			}
		}
		for _, c := range r.FuncChanges {
			fmt.Fprintf(b, "### Functions whose share changed most: %s vs %s\n\n| function | service | self %s | self %s | Δ self | Δ total |\n|---|---|---:|---:|---:|---:|\n",
				format.MdEscape(c.Variant), format.MdEscape(c.Baseline), format.MdEscape(c.Baseline), format.MdEscape(c.Variant))
			for _, f := range c.Changes[:min(10, len(c.Changes))] {
				fmt.Fprintf(b, "| %s | %s | %s | %s | %+.1f pp | %+.1f pp |\n", format.MdCode(f.Name), format.MdEscape(f.Service), pct(f.BaseSelf), pct(f.VarSelf), f.SelfDelta, f.TotalDelta)
			}
			fmt.Fprintln(b)
		}
	}
	if len(r.GHC) > 0 || r.GHCNote != "" {
		fmt.Fprintf(b, "## GHC runtime\n\n")
		if r.GHCNote != "" {
			fmt.Fprintf(b, "%s\n\n", r.GHCNote)
		}
		if len(r.GHC) > 0 {
			fmt.Fprintf(b, "From `+RTS -S`, the lines written during the measured windows (verdicts: the GHC rows of the results).\n\n"+
				"| variant | allocated per request | GC share of CPU | heap after a GC, max | major GCs | GCs |\n|---|---:|---:|---:|---:|---:|\n")
			for _, g := range r.GHC {
				fmt.Fprintf(b, "| %s | %s | %s | %s | %d | %d |\n", format.MdEscape(g.Variant), format.Bytes(g.AllocPerRequest), pct(g.GCShare), format.Bytes(float64(g.MaxLiveBytes)), g.MajorGCs, g.GCs)
			}
			fmt.Fprintln(b)
		}
	}
	if len(r.SQL) > 0 {
		mdSQL(b, r)
	}
}

func mdSQL(b io.Writer, r Report) {
	fmt.Fprintf(b, "## SQL per variant\n\nStatements sent during the measured windows (pg_stat_statements, all users of the database), per HTTP request.\n\n")
	if flagged := flaggedSQL(r.SQLChanges); len(flagged) > 0 {
		fmt.Fprintf(b, "**Differences against the baseline:**\n\n| scenario | variant | change | statement | baseline calls/req | variant calls/req |\n|---|---|---|---|---:|---:|\n")
		for _, c := range flagged {
			fmt.Fprintf(b, "| %s | %s | **%s** | %s | %s | %s |\n", format.MdEscape(c.Scenario), format.MdEscape(c.Variant), c.Kind, format.MdCode(format.Clip(c.Query, 120)), format.Num(c.Base, 3), format.Num(c.Var, 3))
		}
		fmt.Fprintln(b)
	} else if len(r.SQLChanges) > 0 {
		fmt.Fprintf(b, "No statement appears in one variant only, and no statement's calls per request changed.\n\n")
	}
	for _, s := range r.SQL {
		fmt.Fprintf(b, "### %s, %s: %s statements per request\n\n| statement | calls/req | mean ms |\n|---|---:|---:|\n", format.MdEscape(s.Scenario), format.MdEscape(s.Variant), format.Num(s.CallsPerRequest(), 3))
		for _, st := range s.Statements[:min(topStatements, len(s.Statements))] {
			fmt.Fprintf(b, "| %s | %s | %s |\n", format.MdCode(format.Clip(st.Query, 160)), format.Num(st.PerRequest, 3), format.Num(st.MeanMs, 3))
		}
		fmt.Fprintln(b)
	}
}

// flaggedSQL are the changes a reader must see.
func flaggedSQL(cs []profiles.SQLChange) []profiles.SQLChange {
	var out []profiles.SQLChange
	for _, c := range cs {
		if c.Kind != "" {
			out = append(out, c)
		}
	}
	return out
}

// pct formats a share 0..1 as a percentage.
func pct(x float64) string { return format.Num(100*x, 3) + "%" }
