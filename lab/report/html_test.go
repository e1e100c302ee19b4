package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

func renderHTML(t *testing.T, model lab.Model) []byte {
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
	// 2 scenarios × (throughput, latency, curve) + 3 timelines + the
	// limits' 2 (rate and peak memory per scenario) + the OOM-killed
	// trial on one time axis.
	if n := strings.Count(html, `<svg class="chart"`); n != 12 {
		t.Errorf("%d charts, want 12", n)
	}
	for _, want := range []string{"GETSingle: throughput per variant", "GETSingleEmbed: latency distribution",
		"rate vs p99 latency (search)", "PostgREST CPU over the run", "PostgREST RSS over the run",
		"reference server (postgrest-mini), not PostgREST", "oom-kill", "<td class=\"l\">http_req_duration p(95)</td>",
		"<td class=\"l\">in flight, max (not VUs)</td>", "Highest rate within the limit", "Peak memory of the target"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(html, `<td class="l">vus</td>`) { // a search's steps are open-model loads: no VUs
		t.Error("HTML's k6 table has vus for a search run")
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
	checkScreenshot(t, renderHTML(t, "search"), "1200,3000")
}

// TestSweepHTMLRendersInChromium does the same for a sweep's report, with
// its curves and recommendation.
func TestSweepHTMLRendersInChromium(t *testing.T) {
	run := statstest.PoolSweep([]float64{1000, 1500, 2400, 2410, 2405, 2400}, 0.02, 2, "")
	var b bytes.Buffer
	if err := report.HTML(&b, run, stats.Compare(run, 0)); err != nil {
		t.Fatal(err)
	}
	checkScreenshot(t, b.Bytes(), "1200,3000")
}

// #16: the pool-size-like report (six variants, many noisy medians)
// renders, and shows no standalone list of per-metric warnings longer than
// five lines: noise is a mark in the cells, its details are folded.
func TestHTMLManyVariantsFoldsWarnings(t *testing.T) {
	run := poolSizeRun()
	var b bytes.Buffer
	if err := report.HTML(&b, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	outside := regexp.MustCompile(`(?s)<details.*?</details>`).ReplaceAllString(html, "")
	for _, ul := range regexp.MustCompile(`(?s)<ul[^>]*>.*?</ul>`).FindAllString(outside, -1) {
		if n := strings.Count(ul, "<li"); n > 5 {
			t.Errorf("a standalone list of %d items:\n%s", n, ul)
		}
	}
	if strings.Contains(outside, "is noisy") {
		t.Error("noise warnings outside <details>")
	}
	if !strings.Contains(html, "is noisy") || !strings.Contains(html, "%!") || !strings.Contains(html, "noisy medians (marked !)") {
		t.Error("noise details missing: want marked cells and the warnings folded in <details>")
	}
	if v, s := strings.Index(html, "<h2>Verdict</h2>"), strings.Index(html, "<h2>Setup</h2>"); v < 0 || s < v {
		t.Errorf("verdict at %d, setup at %d: the verdict must come first", v, s)
	}
	// Five variants: tables of at most two variants each (3 per scenario).
	if n := strings.Count(html, "(baseline)</th>"); n != 6 {
		t.Errorf("%d results tables, want 6 (three per scenario)", n)
	}
	checkScreenshot(t, b.Bytes(), "1200,6000") // its charts follow long tables
}

// checkScreenshot renders html in headless Chromium in a window of size
// ("1200,3000") and checks the screenshot is neither blank nor colourless.
func checkScreenshot(t *testing.T, html []byte, size string) {
	t.Helper()
	img := screenshot(t, html, size)
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
