package systemd

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkRestartToReady measures one Restart plus WaitReady (HTTP GET /
// answering 200) of a small Go HTTP server, through each controller.
//
//	XDG_RUNTIME_DIR=/run/user/0 go test -run '^$' -bench RestartToReady -benchtime 30x ./systemd
func BenchmarkRestartToReady(b *testing.B) {
	for _, im := range impls() {
		b.Run(im.name, func(b *testing.B) {
			benchRestart(b, im.new(b)(b))
		})
	}
}

func benchRestart(b *testing.B, ctl Controller) {
	s := installServer(b, ctl, nil)
	if err := ctl.Start(testCtx(b), s.spec.Name); err != nil {
		b.Fatal(err)
	}
	if _, err := WaitReady(testCtx(b), s.probe()); err != nil {
		b.Fatal(err)
	}
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if err := ctl.Restart(testCtx(b), s.spec.Name); err != nil {
			b.Fatal(err)
		}
		if _, err := WaitReady(testCtx(b), s.probe()); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), "p50-ms")
	b.ReportMetric(ms(ds[len(ds)*9/10]), "p90-ms")
	b.ReportMetric(ms(ds[len(ds)-1]), "max-ms")
}
