package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func init() {
	register(command{name: "version", summary: "print the lab's version", run: cmdVersion})
}

func cmdVersion(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("version", "version", stdout)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	fmt.Fprintf(stdout, "lab %s (%s, %s/%s)\n", labVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

// labVersion is the build's version: set by the Makefile, else the VCS
// revision when the build recorded one, else "dev".
func labVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v = "dev-" + s.Value[:12]
			}
		}
	}
	return v
}
