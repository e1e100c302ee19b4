package labtest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The pages' tests in a real browser: headless Chromium (Debian's
// chromium), the page loaded from a file.

// Chromium runs headless Chromium on page (written to a file) with extra
// arguments and returns what it printed on stdout. Without
// chromium the test skips (fails under CI=true).
func Chromium(t *testing.T, page []byte, args ...string) []byte {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		Need(t, "chromium is not installed (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "page.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + filepath.Join(dir, "profile")}, args...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+file)...)
	var stdout, stderr []byte
	stdout, err = cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = ee.Stderr
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr)
	}
	return stdout
}

// fitProbe runs in the page before anything else: it records the page's
// errors (script errors, resources that failed, console.error) and, once
// loaded, how wide the page is against the window and every SVG <text>
// whose box leaves its SVG's, then writes them as JSON into the DOM for
// --dump-dom to print.
const fitProbe = `<script>
window.__errs = [];
window.addEventListener("error", e => window.__errs.push(String(e.message || (e.target && (e.target.src || e.target.href)) || "error")), true);
window.addEventListener("securitypolicyviolation", e => window.__errs.push("csp " + e.violatedDirective));
const ce = console.error; console.error = (...a) => { window.__errs.push(a.join(" ")); ce(...a); };
window.addEventListener("load", () => {
  const out = {scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth, clipped: [], texts: 0, errors: window.__errs};
  for (const svg of document.querySelectorAll("svg")) {
    const s = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      out.texts++;
      const r = t.getBoundingClientRect();
      if (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1)
        out.clipped.push((svg.getAttribute("aria-label") || "svg") + ": " + t.textContent.trim() + " " + JSON.stringify([Math.round(r.left-s.left), Math.round(r.top-s.top), Math.round(s.right-r.right), Math.round(s.bottom-r.bottom)]));
    }
  }
  const pre = document.createElement("pre"); pre.id = "fitprobe"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>`

// FitResult is what the probe measured of a page: its scroll width against
// the window, the SVG texts it measured, those outside their SVG, and the
// page's errors.
type FitResult struct {
	ScrollWidth, InnerWidth, Texts int
	Clipped, Errors                []string
}

// FitAt loads page in headless Chromium at width × 900 px and returns what
// fitProbe measured.
func FitAt(t *testing.T, page []byte, width string) FitResult {
	t.Helper()
	probed := bytes.Replace(page, []byte("<head>"), []byte("<head>\n"+fitProbe), 1)
	dom := Chromium(t, probed, "--window-size="+width+",900", "--dump-dom")
	m := regexp.MustCompile(`<pre id="fitprobe">([^<]*)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe wrote nothing; page:\n%.2000s", dom)
	}
	var r FitResult
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(m[1]), "&amp;", "&")), &r); err != nil {
		t.Fatalf("probe: %v: %s", err, m[1])
	}
	return r
}
