package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/store"
)

func init() {
	register(command{name: "push", summary: "import result directories into the shared results store", run: cmdPush})
}

const pushUsage = `push [--store URI] [--ref URL] DIR...

Imports runs into the shared results store (a PostgreSQL database, see
docs/history-and-store.md): each DIR is a result directory (it holds a
run.json) or a tree of them, e.g. 'results', where every run.json below is
imported. Importing is idempotent: a run stored already (the same
experiment, start time and host, wherever it is pushed from) is left as it
is. Prints one line per run: inserted, or already stored.

The store is --store, else $LAB_STORE; the lab creates and migrates its
schema (pgrst_lab). Each run's ref, where its report lives, is its
directory's absolute path, or with --ref URL: URL for a DIR that is one
result directory, URL/<path below DIR> for the runs of a tree.`

func cmdPush(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("push", pushUsage, stdout)
	storeURI := storeFlag(fs)
	ref := fs.String("ref", "", "where the reports live (a URL, e.g. the CI run's artifacts): each run's ref is URL/<its path below DIR>")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErrorf("push: give one or more result directories (or trees of them)")
	}
	uri := storeFrom(*storeURI)
	if uri == "" {
		return usageErrorf("push: no store: give --store URI or set $%s", store.EnvURI)
	}
	type found struct{ dir, ref string }
	var runs []found
	for _, root := range pos {
		dirs, err := resultDirs(root)
		if err != nil {
			return err
		}
		if len(dirs) == 0 {
			return fmt.Errorf("push: no %s in or under %s", record.File, root)
		}
		for _, d := range dirs {
			runs = append(runs, found{d, runRef(root, d, *ref)})
		}
	}
	st, err := store.Open(ctx, uri)
	if err != nil {
		return err
	}
	defer st.Close()
	var errs []error
	inserted, already := 0, 0
	for _, r := range runs {
		run, err := record.ReadDir(r.dir)
		if err != nil {
			textsafe.Fprintf(stderr, "push: %v\n", err)
			errs = append(errs, err)
			continue
		}
		id, ins, err := st.Put(ctx, run, stats.Compare(run, 0), r.ref)
		switch {
		case err != nil:
			textsafe.Fprintf(stderr, "push: %s: %v\n", r.dir, err)
			errs = append(errs, err)
		case ins:
			inserted++
			textsafe.Fprintf(stdout, "inserted        %s  %s\n", id[:12], r.dir)
		default:
			already++
			textsafe.Fprintf(stdout, "already stored  %s  %s\n", id[:12], r.dir)
		}
	}
	fmt.Fprintf(stdout, "%s inserted, %d already stored\n", plural(inserted, "run"), already)
	if len(errs) > 0 {
		return fmt.Errorf("push: %s not stored", plural(len(errs), "run"))
	}
	return nil
}

// storeFlag adds --store: the shared results store.
func storeFlag(fs *flag.FlagSet) *string {
	return fs.String("store", "", "shared results store, a PostgreSQL URI (default $"+store.EnvURI+"; see docs/history-and-store.md)")
}

// storeFrom is the store's URI: the flag's, else $LAB_STORE ("" for none).
func storeFrom(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return strings.TrimSpace(os.Getenv(store.EnvURI))
}

// resultDirs are the result directories in or under root (record.Dirs);
// a directory below root that cannot be read fails the push.
func resultDirs(root string) ([]string, error) {
	if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("push: %s is not a directory", root)
	}
	dirs, unread, err := record.Dirs(root)
	if err == nil {
		err = errors.Join(unread...)
	}
	if err != nil {
		return nil, fmt.Errorf("push: %w", err)
	}
	return dirs, nil
}

// runRef is where the report of the run in dir (found under root) lives:
// ref, or ref/<dir below root> for a tree; without ref, dir's absolute path.
func runRef(root, dir, ref string) string {
	if ref == "" {
		if abs, err := filepath.Abs(dir); err == nil {
			return abs
		}
		return dir
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." {
		return ref
	}
	return strings.TrimRight(ref, "/") + "/" + path.Clean(filepath.ToSlash(rel))
}
