package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
)

func matrixPage(t *testing.T, m *matrix.Matrix) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := matrix.HTML(&b, m, "res/matrix/socket-vs-tcp/t"); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestMatrixHTMLRendersInChromium loads matrix.html in headless Chromium:
// the page Chromium built names both measured hosts in the side-by-side
// table and has a section for each, and the screenshot shows both hosts'
// charts: about twice the coloured area of the same page with one host.
func TestMatrixHTMLRendersInChromium(t *testing.T) {
	two := matrixFixture(true) // fast, slow (measured) and gone (failed)
	page := matrixPage(t, two)
	dom := string(chromium(t, page, "--dump-dom"))
	for _, want := range []string{"<th>fast</th>", "<th>slow</th>", "<h3>fast</h3>", "<h3>slow</h3>", "<h3>gone</h3>",
		"failed: connection refused", "GETAllEmbed"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page Chromium built lacks %q", want)
		}
	}
	if n := strings.Count(dom, `<svg class="chart"`); n != 8 {
		t.Errorf("%d charts in the page Chromium built, want 8 (2 hosts × 2 scenarios × 2)", n)
	}

	const size = "1200,9000" // tall enough for every chart of both hosts
	img := screenshot(t, page, size)
	total, ink, colored := inkOf(img)
	one := matrixFixture(true)
	one.Hosts = one.Hosts[:1]
	t.Setenv("REPORT_SCREENSHOT", "")
	_, _, coloredOne := inkOf(screenshot(t, matrixPage(t, one), size))
	t.Logf("screenshot %v: %.1f%% non-white, %.2f%% coloured; with one host %.2f%% coloured", img.Bounds().Size(),
		100*float64(ink)/float64(total), 100*float64(colored)/float64(total), 100*float64(coloredOne)/float64(total))
	if ink < total/100 {
		t.Errorf("screenshot nearly blank: %d of %d sampled pixels non-white", ink, total)
	}
	if colored < total/5000 || coloredOne < total/10000 {
		t.Errorf("screenshot has almost no colour (charts missing?): %d (one host: %d) of %d", colored, coloredOne, total)
	}
	if float64(colored) < 1.6*float64(coloredOne) {
		t.Errorf("both hosts' charts should show: %d coloured pixels, %d with one host (want about twice)", colored, coloredOne)
	}
}
