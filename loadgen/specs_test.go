package loadgen

import (
	"strings"
	"testing"
)

func TestParseMix(t *testing.T) {
	mix, err := ParseMix("GETSingle:3, POSTSingle")
	if err != nil {
		t.Fatal(err)
	}
	if len(mix) != 2 || mix[0].Scenario.Name != "GETSingle" || mix[0].Weight != 3 || mix[1].Scenario.Name != "POSTSingle" || mix[1].Weight != 1 {
		t.Fatalf("mix = %+v", mix)
	}
	for spec, want := range map[string]string{"GETSingle:0": `weight "0"`, "GETSingle:x": `weight "x"`, "NoSuch": "NoSuch"} {
		if _, err := ParseMix(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMix(%q) = %v, want an error naming %s", spec, err, want)
		}
	}
}

func TestParseRatesAndHeader(t *testing.T) {
	if r, err := ParseRates("10, 20.5"); err != nil || len(r) != 2 || r[1] != 20.5 {
		t.Fatalf("ParseRates = %v, %v", r, err)
	}
	if _, err := ParseRates("10,-1"); err == nil {
		t.Error("a negative rate was taken")
	}
	if k, v, err := ParseHeader(" Prefer : count=exact"); err != nil || k != "Prefer" || v != "count=exact" {
		t.Errorf("ParseHeader = %q %q %v", k, v, err)
	}
	if _, _, err := ParseHeader("no colon"); err == nil {
		t.Error("a header without a colon was taken")
	}
}

func TestSplitURL(t *testing.T) {
	for u, want := range map[string][2]string{
		"http://127.0.0.1:3000/artist?id=eq.{{.ID}}": {"http://127.0.0.1:3000", "/artist?id=eq.{{.ID}}"},
		"http://h:1":     {"http://h:1", "/"},
		"http://h:1?a=1": {"http://h:1", "/?a=1"},
	} {
		if b, p := SplitURL(u); b != want[0] || p != want[1] {
			t.Errorf("SplitURL(%q) = %q %q, want %q", u, b, p, want)
		}
	}
}
