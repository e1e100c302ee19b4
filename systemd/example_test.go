package systemd_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Run PostgREST as a unit, change its CPU affinity for one experiment,
// restart it and gate on readiness, then put everything back.
func Example() {
	ctx := context.Background()
	ctl, err := systemd.Connect(ctx, systemd.ConnectOptions{Logf: log.Printf})
	if err != nil {
		log.Fatal(err)
	}
	defer ctl.Close()

	unit := "lab-target.service"
	// Undo what a killed earlier run may have left.
	if _, err := ctl.RemoveLabDropIns(ctx, unit); err != nil {
		log.Fatal(err)
	}
	err = ctl.Install(ctx, systemd.UnitSpec{
		Name:         unit,
		ExecStart:    []string{"/usr/local/bin/postgrest", "/etc/lab/postgrest.conf"},
		LogFile:      "/var/log/lab/postgrest.log",
		ReloadSignal: "SIGUSR2",
		StopTimeout:  10 * time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	ready := systemd.Probe{AdminURL: "http://127.0.0.1:3001", Timeout: 30 * time.Second, Controller: ctl, Unit: unit}

	if err := ctl.SetDropIn(ctx, unit, "cpu", map[string]string{"CPUAffinity": "0"}); err != nil {
		log.Fatal(err)
	}
	defer ctl.RemoveDropIn(ctx, unit, "cpu")
	if err := ctl.Restart(ctx, unit); err != nil {
		log.Fatal(err) // a *systemd.UnitError with the log tail
	}
	took, err := systemd.WaitReady(ctx, ready)
	if err != nil {
		log.Fatal(err)
	}
	p, err := ctl.Properties(ctx, unit)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ready after %v: pid %d, %d restarts, %d bytes\n", took, p.MainPID, p.NRestarts, p.MemoryCurrent)
}
