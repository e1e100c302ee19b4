package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func renderHTML(t *testing.T, model string) []byte {
	t.Helper()
	run := fixtureRun(model)
	var b bytes.Buffer
	if err := report.HTML(&b, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestHTMLIsSelfContainedWithCharts(t *testing.T) {
	html := string(renderHTML(t, "search"))
	// 2 scenarios × (throughput, latency, curve) + 3 timelines.
	if n := strings.Count(html, `<svg class="chart"`); n != 9 {
		t.Errorf("%d charts, want 9", n)
	}
	for _, want := range []string{"GETSingle: throughput per variant", "GETSingleEmbed: latency distribution",
		"rate vs p99 latency (search)", "PostgREST CPU over the run", "PostgREST RSS over the run",
		"reference server (postgrest-mini), not PostgREST", "oom-kill", "http_reqs rate"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(html, "<script") {
		t.Error("HTML has a script")
	}
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:)?//`).FindString(html); m != "" {
		t.Errorf("HTML refers to an external URL: %s", m)
	}
}

// TestHTMLRendersInChromium loads the report in headless Chromium and
// checks the screenshot shows something (charts and tables), not a blank page.
func TestHTMLRendersInChromium(t *testing.T) {
	checkScreenshot(t, renderHTML(t, "search"))
}

// TestSweepHTMLRendersInChromium does the same for a sweep's report, with
// its curves and recommendation.
func TestSweepHTMLRendersInChromium(t *testing.T) {
	html, _, _ := sweepReports(t)
	checkScreenshot(t, []byte(html))
}

// checkScreenshot renders html in headless Chromium and checks the
// screenshot is neither blank nor colourless.
func checkScreenshot(t *testing.T, html []byte) {
	t.Helper()
	img := screenshot(t, html, "1200,3000")
	bounds := img.Bounds()
	total, ink, colored := inkOf(img)
	t.Logf("screenshot %v: %.1f%% non-white, %.2f%% coloured", bounds.Size(), 100*float64(ink)/float64(total), 100*float64(colored)/float64(total))
	if ink < total/50 {
		t.Errorf("screenshot nearly blank: %d of %d sampled pixels non-white", ink, total)
	}
	if colored < total/500 {
		t.Errorf("screenshot has almost no colour (charts missing?): %d of %d", colored, total)
	}
}
