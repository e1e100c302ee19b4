package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// parseBinary reads NAME=PATH; the path must be an executable file (made
// absolute here, as variants need).
func parseBinary(s string) (lab.Binary, error) {
	name, path, ok := strings.Cut(s, "=")
	if !ok || name == "" || path == "" {
		return lab.Binary{}, fmt.Errorf("%q: want NAME=PATH, e.g. base=/usr/local/bin/postgrest", s)
	}
	if !lab.ValidName(name) {
		return lab.Binary{}, fmt.Errorf("%q: name %q: use letters, digits, '.', '_' and '-' (it names the variant)", s, name)
	}
	if ref, ok := strings.CutPrefix(path, "ref:"); ok {
		if ref == "" {
			return lab.Binary{}, fmt.Errorf("%q: want NAME=ref:REF, e.g. pr=ref:HEAD (with --repo DIR)", s)
		}
		return lab.Binary{Name: name, Ref: ref}, nil
	}
	p, err := executable(path)
	if err != nil {
		return lab.Binary{}, fmt.Errorf("%q: %w", s, err)
	}
	return lab.Binary{Name: name, Path: p}, nil
}

// executable returns path made absolute, or an error unless it is an
// executable regular file.
func executable(path string) (string, error) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s: %w", path, err)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file", path)
	case fi.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("%s is not executable (chmod +x?)", path)
	}
	return p, nil
}

// binaryVariants replaces e's variants with one per binary
// (lab.Experiment.UseBinaries). Each binary is asked its --version first,
// so that a path that is not a PostgREST build fails before any trial.
func binaryVariants(ctx context.Context, e *lab.Experiment, bins []lab.Binary) error {
	if err := e.UseBinaries(bins); err != nil {
		return usageErrorf("%v", err)
	}
	for _, b := range bins {
		if _, err := reconcile.BinaryVersion(ctx, b.Path); err != nil {
			return usageErrorf("--binary %s=%s: %v (is it a PostgREST build?)", b.Name, b.Path, err)
		}
	}
	return nil
}

// binaryVersions asks every variant's binary that exists on this machine
// for its --version, by variant name ("" when it cannot say).
func binaryVersions(ctx context.Context, e *lab.Experiment) map[string]string {
	out := map[string]string{}
	for _, v := range e.Variants {
		if v.Binary == "" {
			continue
		}
		ver, err := reconcile.BinaryVersion(ctx, v.Binary)
		if err != nil {
			ver = ""
		}
		out[v.Name] = ver
	}
	return out
}
