package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// namedBinary is one --binary NAME=PATH, or NAME=ref:REF (a git ref of
// --repo, built before the run: path is set then).
type namedBinary struct {
	name, path string
	ref        string           // the git ref to build ("" for a path)
	build      *gitbuild.Result // set once the ref is built
}

// parseBinary reads NAME=PATH; the path must be an executable file (made
// absolute here, as variants need).
func parseBinary(s string) (namedBinary, error) {
	name, path, ok := strings.Cut(s, "=")
	if !ok || name == "" || path == "" {
		return namedBinary{}, fmt.Errorf("%q: want NAME=PATH, e.g. base=/usr/local/bin/postgrest", s)
	}
	if !lab.ValidName(name) {
		return namedBinary{}, fmt.Errorf("%q: name %q: use letters, digits, '.', '_' and '-' (it names the variant)", s, name)
	}
	if ref, ok := strings.CutPrefix(path, "ref:"); ok {
		if ref == "" {
			return namedBinary{}, fmt.Errorf("%q: want NAME=ref:REF, e.g. pr=ref:HEAD (with --repo DIR)", s)
		}
		return namedBinary{name: name, ref: ref}, nil
	}
	p, err := executable(path)
	if err != nil {
		return namedBinary{}, fmt.Errorf("%q: %w", s, err)
	}
	return namedBinary{name: name, path: p}, nil
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

// binaryVariants replaces e's variants with one per binary, the first the
// baseline, each with the settings of the file's baseline variant (e.g.
// loadtest's db-pool = 1); everything else (scenarios, load, trials) stays
// the file's.
// Each binary is asked its --version first, so that a path that is not a
// PostgREST build fails before any trial.
func binaryVariants(ctx context.Context, e *lab.Experiment, bins []namedBinary) error {
	if len(bins) < 2 {
		return usageErrorf("--binary: give at least two (the first is the baseline), e.g. --binary base=PATH --binary pr=PATH")
	}
	seen := map[string]bool{}
	base := e.BaselineVariant()
	var vs []lab.Variant
	for i, b := range bins {
		if seen[b.name] {
			return usageErrorf("--binary %s=%s: the name %q is given twice", b.name, b.path, b.name)
		}
		seen[b.name] = true
		if _, err := reconcile.BinaryVersion(ctx, b.path); err != nil {
			return usageErrorf("--binary %s=%s: %v (is it a PostgREST build?)", b.name, b.path, err)
		}
		desc := "--binary " + b.path
		if b.build != nil {
			desc = buildDescription(b)
		}
		vs = append(vs, base.WithBinary(b.name, b.path, desc, i == 0))
	}
	e.Variants = vs
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

// noteVersions records each variant's binary and its version in the run.
func noteVersions(e *lab.Experiment, versions map[string]string) func(*lab.Run) {
	return func(run *lab.Run) {
		for _, v := range e.Variants {
			if v.Binary == "" {
				continue
			}
			for i := range run.Variants {
				if run.Variants[i].Name == v.Name {
					// A binary's output is untrusted text, cleaned like an agent's.
					run.Variants[i].Binary, run.Variants[i].Version = v.Binary, textsafe.CleanText(versions[v.Name])
				}
			}
		}
	}
}
