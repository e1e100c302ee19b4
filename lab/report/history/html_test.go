package history_test

import (
	"bytes"
	"context"
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	historyreport "github.com/pgrst-lab/pgrst-lab/lab/report/history"
)

func page(t *testing.T, runs []history.Run, pageDir string) []byte {
	t.Helper()
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := historyreport.HTML(&b, h, historyreport.HTMLOptions{PageDir: pageDir}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestHTMLPage(t *testing.T) {
	runs := historytest.StepRuns(12, 7, -0.10)
	p := string(page(t, runs, "/results"))
	if n := strings.Count(p, "<svg"); n != 3 {
		t.Errorf("%d charts, want 3 (one per headline metric of GETSingle)", n)
	}
	for _, want := range []string{`<a href="socket-vs-tcp/` + runs[0].ID + `/report.html">`, "-9.9 % (" + runs[6].Run.Variants[0].Build.Commit[:7] + ".." +
		runs[7].Run.Variants[0].Build.Commit[:7] + ")", `fill-opacity="0.22"`, "#d62728"} {
		if !strings.Contains(p, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Self-contained: no scripts, nothing fetched.
	if regexp.MustCompile(`(?i)<script|src=|<link|@import|url\(`).MatchString(p) {
		t.Error("page is not self-contained")
	}
}

func TestReportLink(t *testing.T) {
	for _, tc := range []struct{ ref, dir, want string }{
		{"/r/exp/20261130-090000", "/r", "exp/20261130-090000/report.html"},
		{"/r/exp/a b#c", "/r/exp", "a%20b%23c/report.html"},
		{"https://ci.example/runs/7", "/r", "https://ci.example/runs/7/report.html"},
		{"https://ci.example/runs/7/report.html", "/r", "https://ci.example/runs/7/report.html"},
		{"javascript:alert(1)", "/r", ""},
		{"/r/x:y", "/r", "./x:y/report.html"},
		{"", "/r", ""},
	} {
		if got := historyreport.ReportLink(tc.ref, tc.dir); got != tc.want {
			t.Errorf("ReportLink(%q, %q) = %q, want %q", tc.ref, tc.dir, got, tc.want)
		}
	}
}

// hostile is what an agent or a build could put in any string.
var hostile = "evil\x1b[2J|cell\n<script>alert(1)</script>\"><img src=x onerror=alert(1)>" + strings.Repeat("A", 4<<10)

func TestHostileStringsEscaped(t *testing.T) {
	runs := historytest.StepRuns(10, 6, -0.1)
	for i := range runs {
		r := runs[i].Run
		runs[i].ID, runs[i].Ref = hostile, "javascript:alert(1)//"+hostile
		r.Host.Hostname, r.Host.HostID = hostile, hostile
		r.Target.Version = hostile
		for j := range r.Variants {
			r.Variants[j].Build.Commit, r.Variants[j].Build.Version = hostile, hostile
		}
		r.ExperimentHash = hostile
	}
	p := string(page(t, runs, "/r"))
	for _, bad := range []string{"<script", "<img", "\x1b", `href="javascript:`, "<a href=\"j"} {
		if strings.Contains(p, bad) {
			t.Errorf("page holds %q", bad)
		}
	}
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	historyreport.Text(&out, h, historyreport.TextOptions{})
	if strings.Contains(out.String(), "\x1b") || strings.Contains(out.String(), "|cell\n") {
		t.Error("text output holds a terminal escape or a line break from a run")
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if len([]rune(l)) > 400 {
			t.Errorf("line of %d runes: a run's string was not cut", len([]rune(l)))
			break
		}
	}
}

// screenshot renders page in headless Chromium (as lab/report's test);
// REPORT_SCREENSHOT=file.png keeps the picture. Without chromium the
// test skips (fails under CI=true).
func screenshot(t *testing.T, page []byte) image.Image {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		labtest.Need(t, "chromium is not installed (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	file, shot := filepath.Join(dir, "page.html"), filepath.Join(dir, "shot.png")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1100,1400", "--screenshot="+shot, "file://"+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if keep := os.Getenv("REPORT_SCREENSHOT"); keep != "" {
		_ = os.WriteFile(keep, b, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// pixels counts the pixels near colour (r, g, b) (8-bit), and the
// non-white ones, sampling every pixel.
func pixels(img image.Image, r0, g0, b0 int) (near, ink int) {
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			ri, gi, bi := int(r>>8), int(g>>8), int(b>>8)
			if ri < 0xf0 || gi < 0xf0 || bi < 0xf0 {
				ink++
			}
			if abs(ri-r0) < 24 && abs(gi-g0) < 24 && abs(bi-b0) < 24 {
				near++
			}
		}
	}
	return near, ink
}

func abs(x int) int { return max(x, -x) }

func TestHTMLScreenshot(t *testing.T) {
	img := screenshot(t, page(t, historytest.StepRuns(12, 7, -0.10), "/results"))
	total := img.Bounds().Dx() * img.Bounds().Dy()
	red, ink := pixels(img, 0xd6, 0x27, 0x28)  // the regression markers
	blue, _ := pixels(img, 0x4e, 0x79, 0xa7)   // the first variant's line and points
	band, _ := pixels(img, 0xc5, 0xd2, 0xe1)   // its CI band: 22 % of #4e79a7 on white
	orange, _ := pixels(img, 0xf2, 0x8e, 0x2b) // the second variant
	if ink < total/50 || red < 300 || blue < 300 || orange < 300 || band < 300 {
		t.Errorf("screenshot: ink %d of %d, regression marker %d, tcp %d (band %d), unix %d pixels", ink, total, red, blue, band, orange)
	}
	// Without a change point, no marker.
	t.Setenv("REPORT_SCREENSHOT", "")
	img = screenshot(t, page(t, historytest.StepRuns(12, 99, 0), "/results"))
	if red, _ := pixels(img, 0xd6, 0x27, 0x28); red > 20 {
		t.Errorf("no change point, yet %d pixels of the regression marker", red)
	}
}
