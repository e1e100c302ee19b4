package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/server"
	"github.com/pgrst-lab/pgrst-lab/configs"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: postgrest-mini /path/to/config")
		return 2
	}
	settings, err := configs.Load(args[0], os.Environ())
	if err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %v\n", err)
		return 1
	}
	opts, err := options(settings)
	if err != nil {
		fmt.Fprintf(os.Stderr, "postgrest-mini: %s: %v\n", args[0], err)
		return 1
	}
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
