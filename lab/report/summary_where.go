package report

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// reportWhere says where the summary's full report is: a link to
// o.ReportURL (https only, so no scheme a reader's browser would run), or
// the result directory, by its last two parts when it is absolute (the
// experiment and the run's stamp), never a runner's local path.
func reportWhere(o SummaryOptions) string {
	if u, err := url.Parse(o.ReportURL); o.ReportURL != "" && err == nil && u.Scheme == "https" && u.Host != "" {
		link := strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(u.String())
		return "[the run's artifacts](" + link + ") (report.md, report.html)"
	}
	if o.Dir == "" {
		return "report.md and report.html in the run's result directory"
	}
	dir := filepath.ToSlash(o.Dir)
	if filepath.IsAbs(o.Dir) {
		dir = filepath.Base(filepath.Dir(o.Dir)) + "/" + filepath.Base(o.Dir)
	}
	return format.MdCode(dir+"/report.md") + " and `report.html` in the results directory"
}

// URLFromEnv is where a summary links the full report, from the
// environment getenv reads: $LAB_REPORT_URL (the comment workflow passes
// the measuring run's page), else, on a GitHub Actions runner, this run's
// page, whose artifacts hold the results; "" elsewhere.
func URLFromEnv(getenv func(string) string) string {
	if u := getenv("LAB_REPORT_URL"); u != "" {
		return u
	}
	server, repo, id := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY"), getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}
