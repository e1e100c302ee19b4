package report_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// chromium runs headless Chromium on page (labtest.Chromium).
func chromium(t *testing.T, page []byte, args ...string) []byte {
	t.Helper()
	return labtest.Chromium(t, page, args...)
}

// screenshot renders page in headless Chromium at size ("1200,3000");
// REPORT_SCREENSHOT=file.png keeps a copy.
func screenshot(t *testing.T, page []byte, size string) image.Image {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "shot.png")
	chromium(t, page, "--window-size="+size, "--screenshot="+shot)
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if keep := os.Getenv("REPORT_SCREENSHOT"); keep != "" {
		_ = os.WriteFile(keep, b, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return img
}

// inkOf samples every second pixel: how many there are, how many are not
// white and how many are saturated (the charts' series, coloured cells).
func inkOf(img image.Image) (total, ink, colored int) {
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			total++
			if r < 0xf000 || g < 0xf000 || b < 0xf000 {
				ink++
			}
			if mx, mn := max(r, g, b), min(r, g, b); mx-mn > 0x4000 {
				colored++
			}
		}
	}
	return total, ink, colored
}
