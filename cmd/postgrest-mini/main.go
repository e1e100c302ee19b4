package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/server"
	"github.com/pgrst-lab/pgrst-lab/configs"
)

// version is printed by --version.
const version = "postgrest-mini 0.1 (PostgREST-compatible subset)"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	c, err := parseCLI(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n%s", err, usage)
		return 2
	}
	if err := c.rtsFromEnv(os.Getenv("GHCRTS")); err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n", err)
		return 2
	}
	switch {
	case c.help:
		fmt.Print(usage)
		return 0
	case c.version:
		fmt.Println(version)
		return 0
	}
	settings, err := configs.Load(c.path, os.Environ())
	if err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n", err)
		return 1
	}
	if c.dumpConfig {
		dumpConfig(os.Stdout, settings)
		return 0
	}
	opts, err := options(settings)
	if err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %s: %v\n", c.path, err)
		return 1
	}
	if opts.InjectCPU, err = injectCPU(os.LookupEnv); err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n", err)
		return 1
	}
	if opts.InjectCPU > 0 {
		fmt.Fprintf(os.Stderr, "postgrest-mini: adding %v of CPU work to every request (%s; lab calibration only)\n", opts.InjectCPU, injectEnv)
	}
	if note := c.rtsNote(); note != "" {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %s\n", note)
	}
	// Type=notify units: READY=1 once the schema cache is loaded (a no-op
	// without NOTIFY_SOCKET)
	opts.OnReady = func() { _, _ = daemon.SdNotify(false, daemon.SdNotifyReady) }
	opts.OnStopping = func() { _, _ = daemon.SdNotify(false, daemon.SdNotifyStopping) }
	srv, err := server.New(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n", err)
		return 1
	}
	if err := srv.Listen(); err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	go func() {
		for range usr1 {
			srv.ReloadSchema()
		}
	}()
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n", err)
		return 1
	}
	return 0
}

func fileMode(m uint64) fs.FileMode { return fs.FileMode(m) }
