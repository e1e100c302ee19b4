package telemetry_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
)

// A trial window: sample the service and this process at 10 Hz, mark the
// load, derive CPU per request and memory.
func ExampleSampler() {
	s := telemetry.NewSampler(telemetry.DefaultInterval,
		telemetry.Source{Name: "postgrest", ControlGroup: "/app.slice/lab-postgrest.service"},
		telemetry.Source{Name: "self", RootPID: os.Getpid()})
	if err := s.Start(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	s.Mark("trial-1")
	time.Sleep(300 * time.Millisecond) // the load would run here
	s.Mark("cooldown")
	rec := s.Stop()
	for name, u := range rec.SummaryOf("trial-1") {
		_ = name
		_ = u.CPUMicrosPerRequest(1000) // server CPU µs per request
		_ = u.PeakRSS
	}
	self, _ := rec.Source("self")
	fmt.Println(self.CPUFrom, len(self.Samples) >= 3)
	// Output: proc true
}
