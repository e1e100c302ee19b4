package gitbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// maxArtifact bounds what is read of a build's executable.
const maxArtifact = 1 << 30

// locate returns the artifact: rel under src when given, else the first
// executable named postgrest under result (nix's link to its store),
// dist-newstyle (cabal) or .stack-work (stack). Only result is followed
// as a link; the walk follows none.
func locate(src, rel string) (string, error) {
	if rel != "" {
		p := filepath.Join(src, rel)
		if r, err := filepath.Rel(src, p); err != nil || r == ".." || strings.HasPrefix(r, "../") {
			return "", fmt.Errorf("--artifact %s: not a path inside the tree", rel)
		}
		if !isExecutable(p) {
			return "", fmt.Errorf("--artifact %s: no executable file %s after the build", rel, p)
		}
		return p, nil
	}
	for _, d := range []string{"result", "dist-newstyle", ".stack-work"} {
		root, err := filepath.EvalSymlinks(filepath.Join(src, d)) // nix's result is a link
		if err != nil {
			continue
		}
		var found string
		filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil || found != "" {
				return filepath.SkipDir
			}
			if de.Name() == "postgrest" && de.Type().IsRegular() && isExecutable(p) {
				found = p
				return filepath.SkipAll
			}
			return nil
		})
		if found != "" {
			return found, nil
		}
	}
	return "", errors.New("the build made no executable named postgrest under result, dist-newstyle or .stack-work: give its path with --artifact")
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// copyArtifact copies the build's executable into the store, read with
// the build user's rights (`cat` as that user: the build chose the path,
// so root opens nothing of it), and returns the copy's path: what the lab
// runs from now on, a file only root can change.
func copyArtifact(ctx context.Context, path string, user runas.Account, store runas.Store) (string, error) {
	var data []byte
	if user.Self() {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if data, err = io.ReadAll(io.LimitReader(f, maxArtifact+1)); err != nil {
			return "", fmt.Errorf("read %s: %w", path, err)
		}
	} else {
		cmd := exec.CommandContext(ctx, "cat", "--", path)
		cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: user.Credential()}
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := runas.StartConfined(cmd); err != nil {
			return "", err
		}
		if err := cmd.Wait(); err != nil {
			return "", fmt.Errorf("read %s as %s: %w: %s", path, user.Name, err, strings.TrimSpace(stderr.String()))
		}
		data = out.Bytes()
	}
	if len(data) > maxArtifact {
		return "", fmt.Errorf("%s is larger than %d bytes", path, maxArtifact)
	}
	p, err := store.Add(bytes.NewReader(data), filepath.Base(path))
	if err != nil {
		return "", fmt.Errorf("keep %s: %w", path, err)
	}
	return p, nil
}
