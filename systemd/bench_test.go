package systemd_test

import (
	"slices"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest"
)

// BenchmarkRestartToReady measures one Restart plus systemd.WaitReady (HTTP GET /
// answering 200) of a small Go HTTP servicetest.Server, through each controller.
//
//	XDG_RUNTIME_DIR=/run/user/0 go test -run '^$' -bench RestartToReady -benchtime 30x ./systemd
func BenchmarkRestartToReady(b *testing.B) {
	for _, im := range impls() {
		b.Run(im.name, func(b *testing.B) {
			benchRestart(b, im.new(b)(b))
		})
	}
}

func benchRestart(b *testing.B, ctl systemd.Controller) {
	s := servicetest.InstallServer(b, ctl, nil)
	if err := ctl.Start(servicetest.Ctx(b), s.Spec.Name); err != nil {
		b.Fatal(err)
	}
	if _, err := systemd.WaitReady(servicetest.Ctx(b), s.Probe()); err != nil {
		b.Fatal(err)
	}
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if err := ctl.Restart(servicetest.Ctx(b), s.Spec.Name); err != nil {
			b.Fatal(err)
		}
		if _, err := systemd.WaitReady(servicetest.Ctx(b), s.Probe()); err != nil {
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

// BenchmarkRestartToReadyInterleaved alternates restarts through the D-Bus
// controller and the direct supervisor in one loop, so both see the same
// machine load, and reports their p50s and the ratio direct/dbus.
//
//	XDG_RUNTIME_DIR=/run/user/0 go test -run '^$' -bench Interleaved -benchtime 40x ./systemd
func BenchmarkRestartToReadyInterleaved(b *testing.B) {
	var servers [2]servicetest.Server
	for i, im := range impls() {
		ctl := im.new(b)(b)
		servers[i] = servicetest.InstallServer(b, ctl, nil)
		servicetest.Start(b, servers[i])
	}
	var ds [2][]time.Duration
	b.ResetTimer()
	for n := range b.N {
		for k := range 2 {
			i := (n + k) % 2 // alternate which goes first
			ds[i] = append(ds[i], servicetest.Restart(b, servers[i]))
		}
	}
	b.StopTimer()
	p50 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	dbus, direct := p50(ds[0]), p50(ds[1])
	b.ReportMetric(dbus, "dbus-p50-ms")
	b.ReportMetric(direct, "direct-p50-ms")
	b.ReportMetric(direct/dbus, "direct/dbus")
}
