package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
)

// buildEnv is the build command when --build is not given.
const buildEnv = "LAB_BUILD"

// repoFlags are the flags that build binaries from git refs: --repo,
// --build, --artifact, --allow-dirty, and `lab ab`'s --base and --release.
type repoFlags struct {
	repo, command, artifact   string
	buildUser, buildEnv       string
	base, release, mergedInto string // mergedInto: the ref --release latest's tag is merged into
	allowDirty                bool
	// title is set by `lab ab --repo`: the run is titled by its refs.
	title bool
	// progress is where the builds' progress goes.
	progress io.Writer
}

func (r *repoFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&r.repo, "repo", "", "git repository `DIR` the refs (lab ab REF..., --binary NAME=ref:REF) are built from")
	fs.StringVar(&r.command, "build", "", "shell `CMD` that builds a ref in its worktree (default $"+buildEnv+", else nix-build with a default.nix, cabal or stack)")
	fs.StringVar(&r.artifact, "artifact", "", "the built executable's `PATH` relative to the worktree (default: the first postgrest under result, dist-newstyle, .stack-work)")
	fs.StringVar(&r.buildUser, "build-user", "", "the unprivileged `USER` builds run as when the lab is root (default: the target's user)")
	fs.StringVar(&r.buildEnv, "build-env", "", "variables a build sees beyond PATH, HOME, USER, LANG, LC_ALL, TZ: comma-separated `NAME` (its value here) or NAME=VALUE")
	fs.BoolVar(&r.allowDirty, "allow-dirty", false, "build HEAD even when the repository has uncommitted changes (they are not in the build)")
	fs.StringVar(&r.base, "base", "", "lab ab --repo: the base `REF` (the baseline) the ref is compared with, e.g. main")
	fs.StringVar(&r.release, "release", "", "lab ab --repo: also compare with this release `TAG`, or latest (the newest v* tag merged into the base, else the ref)")
}

// abRefs reads `lab ab --repo DIR REF...`'s positional arguments: the
// built-in scenarios' names are scenarios, everything else a ref. With
// --base (and --release) one ref is compared with them, HEAD when none is
// given; the baseline is the base (else the release).
func abRefs(pos []string, pf *prFlags) error {
	var refs []string
	for _, p := range pos {
		if slices.Contains(lab.BuiltinScenarios, p) {
			pf.scenarios = append(pf.scenarios, p)
		} else {
			refs = append(refs, p)
		}
	}
	r := &pf.git
	if r.base != "" || r.release != "" {
		if len(refs) > 1 {
			return usageErrorf("ab --repo with --base/--release: give one ref to compare with them (HEAD when none), not %d", len(refs))
		}
		subject := "HEAD"
		if len(refs) == 1 {
			subject = refs[0]
		}
		// The baseline first; the subject next, so that its verdicts come first.
		refs, r.mergedInto = nil, subject
		if r.base != "" {
			refs, r.mergedInto = append(refs, r.base, subject), r.base
			if r.release != "" {
				refs = append(refs, r.release) // "latest" is resolved when built
			}
		} else {
			refs = append(refs, r.release, subject)
		}
	} else if len(refs) < 2 {
		return usageErrorf("ab --repo: give two refs or more, REF_A REF_B (A is the baseline), or one with --base REF (and --release latest)")
	}
	seen := map[string]bool{}
	for _, ref := range refs {
		name := ref
		if ref == "latest" && ref == r.release {
			name = "release" // renamed to the tag when resolved
		}
		pf.binaries = append(pf.binaries, lab.Binary{Name: lab.RefName(name, seen), Ref: ref})
	}
	r.title = true
	return nil
}

// buildRefs builds every --binary NAME=ref:REF (and lab ab's refs) before
// the run, so that no trial waits on a build and a broken build costs no
// measurement.
func (r *repoFlags) buildRefs(ctx context.Context, e *lab.Experiment, bins []lab.Binary) error {
	var n int
	for _, b := range bins {
		if b.Ref != "" {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if r.repo == "" {
		return usageErrorf("a ref (%s) needs the repository it is in: --repo DIR", bins[slices.IndexFunc(bins, func(b lab.Binary) bool { return b.Ref != "" })].Ref)
	}
	if abs, err := filepath.Abs(r.repo); err == nil {
		r.repo = abs
	}
	command := r.command
	if command == "" {
		command = os.Getenv(buildEnv)
	}
	out := r.progress
	if out == nil {
		out = io.Discard
	}
	// Resolve first: a typo costs no build.
	seen := map[string]bool{}
	for i := range bins {
		b := &bins[i]
		seen[b.Name] = true
		if b.Ref == "latest" && b.Ref == r.release {
			tag, err := gitbuild.LatestRelease(ctx, r.repo, r.mergedInto)
			if err != nil {
				return fmt.Errorf("--release latest: %w", err)
			}
			b.Ref = tag
			if b.Name == "release" && r.title {
				delete(seen, b.Name)
				b.Name = lab.RefName(tag, seen)
			}
		}
	}
	shas := map[string]string{}
	for _, b := range bins {
		if b.Ref == "" {
			continue
		}
		sha, err := gitbuild.Resolve(ctx, r.repo, b.Ref)
		if err != nil {
			return usageErrorf("--repo %s: %v", r.repo, err)
		}
		shas[b.Name] = sha
	}
	fmt.Fprintf(out, "building %d ref(s) of %s before the first trial\n", n, r.repo)
	for i := range bins {
		b := &bins[i]
		if b.Ref == "" {
			continue
		}
		o, err := r.options(ctx, b.Ref, shas[b.Name], func(s string) { fmt.Fprintf(out, "  build %s\n", s) })
		if err != nil {
			return err
		}
		o.Command = command
		res, err := gitbuild.Build(ctx, o)
		if err != nil {
			return fmt.Errorf("variant %s: %w", b.Name, err)
		}
		b.Path, b.Commit, b.Command = res.Path, res.SHA, res.Command
	}
	if r.title {
		e.Title = lab.BinariesTitle(bins, r.base != "" || r.release != "")
	}
	return nil
}

// commitBuilder builds a commit of --repo with --build (gitbuild, cached
// by commit and command): lab track's and lab bisect's builds.
func (r *repoFlags) commitBuilder() track.Builder {
	return func(ctx context.Context, c track.Commit, progress func(string)) (track.Build, error) {
		o, err := r.options(ctx, c.SHA, c.SHA, progress)
		if err != nil {
			return track.Build{}, err
		}
		res, err := gitbuild.Build(ctx, o)
		if err != nil {
			return track.Build{}, err
		}
		return track.Build{Path: res.Path, Command: res.Command, Cached: res.Cached}, nil
	}
}

// options are the build of ref (sha) with the flags: as --build-user
// (else the target's account: a root lab never builds as root), with
// --build-env's variables and nothing else of the lab's environment.
func (r *repoFlags) options(ctx context.Context, ref, sha string, progress func(string)) (gitbuild.Options, error) {
	user, err := runas.Target(ctx, r.buildUser)
	if err != nil {
		return gitbuild.Options{}, usageErrorf("--build-user: %v", err)
	}
	env, err := gitbuild.ParseEnv(r.buildEnv)
	if err != nil {
		return gitbuild.Options{}, usageErrorf("%v", err)
	}
	return gitbuild.Options{Repo: r.repo, Ref: ref, SHA: sha, Command: r.command, Artifact: r.artifact, AllowDirty: r.allowDirty,
		User: user, Env: env, Progress: progress}, nil
}
