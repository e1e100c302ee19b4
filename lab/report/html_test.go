package report_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/labtest"
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
	img := screenshot(t, renderHTML(t, "search"), "", 1200, 3000)
	total, ink, colored := 0, 0, 0
	eachPixel(img, func(r, g, b uint32) {
		total++
		if r < 0xf000 || g < 0xf000 || b < 0xf000 {
			ink++
		}
		// Saturated pixels: the charts' coloured series and cells.
		if mx, mn := max(r, g, b), min(r, g, b); mx-mn > 0x4000 {
			colored++
		}
	})
	t.Logf("screenshot %v: %.1f%% non-white, %.2f%% coloured", img.Bounds().Size(), 100*float64(ink)/float64(total), 100*float64(colored)/float64(total))
	if ink < total/50 {
		t.Errorf("screenshot nearly blank: %d of %d sampled pixels non-white", ink, total)
	}
	if colored < total/500 {
		t.Errorf("screenshot has almost no colour (charts missing?): %d of %d", colored, total)
	}
}

// screenshot renders page in headless Chromium (scrolled to #anchor when
// given) and returns the screenshot; REPORT_SCREENSHOT keeps a copy.
func screenshot(t *testing.T, html []byte, anchor string, w, h int) image.Image {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		labtest.Need(t, "chromium is not installed (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	url := "file://" + page
	if anchor != "" {
		url += "#" + anchor
	}
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", w, h), url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\nchromium said:\n%s", err, out)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if keep := os.Getenv("REPORT_SCREENSHOT"); keep != "" {
		b, _ := os.ReadFile(shot)
		os.WriteFile(strings.TrimSuffix(keep, ".png")+anchor+".png", b, 0o644)
	}
	return img
}

// eachPixel calls f with every second pixel's colour, in both directions.
func eachPixel(img image.Image, f func(r, g, b uint32)) {
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			f(r, g, b)
		}
	}
}
