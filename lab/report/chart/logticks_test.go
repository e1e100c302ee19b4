package chart

import "testing"

func TestLogTicksArePlainNumbers(t *testing.T) {
	var got []string
	for _, tk := range (LogTicks{}).Ticks(10, 2e6) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	want := []string{"10", "100", "1000", "10k", "100k", "1M", "10M"}
	if len(got) != len(want) {
		t.Fatalf("labels %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("labels %q, want %q", got, want)
			break
		}
	}
}
